// What a dropped or picked file must be before its text is sent: one trace file, not empty, and
// small enough for `baton serve`'s 16 MiB request limit.
import { describe, expect, it } from "vitest";
import { checkRequestSize, checkTraceFiles, duplicateOf, MAX_REQUEST_BYTES, MAX_UPLOAD_BYTES } from "./upload";

const MiB = 1024 * 1024;

describe("checkTraceFiles", () => {
  it("lets one trace file through by its extension (JSON, JSON Lines, text), in any case", () => {
    for (const name of ["run.json", "spans.jsonl", "adk_api_run_sse.txt", "EXPORT.JSONL"]) expect(checkTraceFiles([{ name, size: 10 }])).toBeNull();
  });

  it("refuses what is not a trace file, saying which files are", () => {
    const e = checkTraceFiles([{ name: "ticket-reopen.yaml", size: 900 }]);
    expect(e?.code).toBe("import.unknown_format");
    expect(e?.message).toMatch(/ticket-reopen\.yaml is not a trace file.*\.json, \.jsonl or \.txt.*nothing was imported/);
    expect(checkTraceFiles([{ name: "photo.png", size: 5 }])?.code).toBe("import.unknown_format");
  });

  it("refuses several files at once, and an empty one", () => {
    expect(checkTraceFiles([{ name: "a.json", size: 1 }, { name: "b.json", size: 1 }])?.message).toMatch(/2 files were dropped; drop one trace file at a time/);
    expect(checkTraceFiles([])?.code).toBe("import.read");
    expect(checkTraceFiles([{ name: "empty.json", size: 0 }])).toMatchObject({ code: "import.read", message: "empty.json: the file is empty; nothing was imported" });
  });

  it("refuses a file over the limit before reading it, and says to open it by path instead", () => {
    expect(checkTraceFiles([{ name: "big.jsonl", size: MAX_UPLOAD_BYTES }])).toBeNull();
    const e = checkTraceFiles([{ name: "big.jsonl", size: 40 * MiB }]);
    expect(e?.code).toBe("import.too_large");
    expect(e?.message).toMatch(/big\.jsonl is 40 MB; a file sent from the window can be at most 16 MB/);
    expect(e?.message).toMatch(/Open trace with its path/);
    expect(MAX_UPLOAD_BYTES).toBeLessThan(16 * MiB);
  });
});

describe("checkRequestSize", () => {
  it("measures the request as sent: quotes and non-ASCII text grow past the file's size", () => {
    // 9 MiB of quotes is a 9 MiB file, but each quote is escaped as \" in the JSON body: 18 MiB.
    const text = '"'.repeat(9 * MiB);
    expect(checkTraceFiles([{ name: "q.json", size: text.length }])).toBeNull();
    const e = checkRequestSize("q.json", { name: "q.json", text });
    expect(e?.code).toBe("import.too_large");
    expect(e?.message).toMatch(/q\.json takes 18 MB to send/);
    // é is 2 bytes in UTF-8
    expect(checkRequestSize("e.txt", { name: "e.txt", text: "é".repeat(Math.floor(MAX_REQUEST_BYTES / 2) + 10) })?.code).toBe("import.too_large");
    expect(checkRequestSize("ok.json", { name: "ok.json", text: "x".repeat(MiB) })).toBeNull();
  });
});

describe("duplicateOf", () => {
  it("finds the earlier run an import.duplicate names", () => {
    const m = "/tmp/x/agents.jsonl: already imported as run 01a23268-4533-7180-9885-2af12976d4c2 (the same content); `baton trace show 01a23268-4533-7180-9885-2af12976d4c2` shows it, or import again with --again";
    expect(duplicateOf(m)).toBe("01a23268-4533-7180-9885-2af12976d4c2");
    expect(duplicateOf("line 3: expected a span")).toBeNull();
  });
});
