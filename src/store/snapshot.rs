//! Context snapshots as deltas: each snapshot keeps a prefix of the run's previous snapshot and
//! appends new item ids; every 64th snapshot is stored whole, so any snapshot rebuilds from at
//! most 64 rows.

use super::StoreError;
use crate::context::ItemId;

/// Snapshots stored whole at every multiple of this.
pub const FULL_EVERY: i64 = 64;

pub fn encode_ids(ids: &[ItemId]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ids.len() * 16);
    for id in ids {
        out.extend_from_slice(&id.0);
    }
    out
}

pub fn decode_ids(bytes: &[u8]) -> Result<Vec<ItemId>, StoreError> {
    if !bytes.len().is_multiple_of(16) {
        return Err(StoreError::Damaged(format!("an id list of {} bytes is not a multiple of 16", bytes.len())));
    }
    Ok(bytes
        .chunks_exact(16)
        .map(|c| {
            let mut b = [0u8; 16];
            b.copy_from_slice(c);
            ItemId(b)
        })
        .collect())
}

/// One row to write: (seq, prefix_len, appended ids).
pub type Row = (i64, i64, Vec<u8>);

/// Tracks a run's last snapshot and turns each new context into a delta row.
#[derive(Default, Clone)]
pub struct Encoder {
    last: Vec<ItemId>,
    next_seq: i64,
}

impl Encoder {
    /// The snapshot seq for `ids`, and the row to write (none when equal to the last one).
    pub fn push(&mut self, ids: &[ItemId]) -> (i64, Option<Row>) {
        if self.next_seq > 0 && ids == self.last.as_slice() {
            return (self.next_seq - 1, None);
        }
        let seq = self.next_seq;
        let prefix =
            if seq % FULL_EVERY == 0 { 0 } else { self.last.iter().zip(ids).take_while(|(a, b)| a == b).count() };
        let row = (seq, prefix as i64, encode_ids(&ids[prefix..]));
        self.last.clear();
        self.last.extend_from_slice(ids);
        self.next_seq += 1;
        (seq, Some(row))
    }
}

/// Applies snapshot `seq` (keep `prefix` ids of the one before, then add `ids`) to `cur`.
pub fn apply(cur: &mut Vec<ItemId>, seq: i64, prefix: i64, ids: &[u8]) -> Result<(), StoreError> {
    let keep = usize::try_from(prefix).unwrap_or(usize::MAX);
    if keep > cur.len() {
        return Err(StoreError::Damaged(format!("snapshot {seq} keeps {prefix} ids of a snapshot with {}", cur.len())));
    }
    cur.truncate(keep);
    cur.extend(decode_ids(ids)?);
    Ok(())
}

/// Rebuilds snapshot `target` from rows `(seq, prefix_len, ids)` in seq order, starting at a
/// whole snapshot.
pub fn rebuild(rows: &[(i64, i64, Vec<u8>)], target: i64) -> Result<Vec<ItemId>, StoreError> {
    let mut cur: Vec<ItemId> = vec![];
    let mut seen_target = false;
    for (i, (seq, prefix, ids)) in rows.iter().enumerate() {
        if i == 0 && *prefix != 0 {
            return Err(StoreError::Damaged(format!("snapshot chain starts at {seq} without a whole snapshot")));
        }
        apply(&mut cur, *seq, *prefix, ids)?;
        if *seq == target {
            seen_target = true;
            break;
        }
    }
    if seen_target { Ok(cur) } else { Err(StoreError::Damaged(format!("snapshot {target} is missing"))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u8) -> ItemId {
        ItemId([n; 16])
    }

    #[test]
    fn deltas_rebuild_every_snapshot() {
        let mut enc = Encoder::default();
        let mut rows = vec![];
        let mut contexts = vec![];
        let mut ctx = vec![];
        for n in 0..200u8 {
            if n % 37 == 0 {
                ctx = vec![id(n)]; // a handoff replaces the context
            } else {
                ctx.push(id(n));
            }
            let (seq, row) = enc.push(&ctx);
            rows.extend(row);
            contexts.push((seq, ctx.clone()));
            let (same, none) = enc.push(&ctx);
            assert_eq!((same, none), (seq, None), "an unchanged context reuses its snapshot");
        }
        for (seq, want) in contexts {
            let base = seq - seq % FULL_EVERY;
            let slice: Vec<_> = rows.iter().filter(|r| r.0 >= base && r.0 <= seq).cloned().collect();
            assert_eq!(rebuild(&slice, seq).unwrap(), want, "snapshot {seq}");
        }
        let stored: usize = rows.iter().map(|r| r.2.len()).sum();
        assert!(stored < 200 * 16 * 4, "deltas store far less than whole copies: {stored}");
    }

    #[test]
    fn damaged_rows_are_errors_not_panics() {
        assert!(decode_ids(&[1, 2, 3]).is_err());
        assert!(rebuild(&[(5, 3, vec![])], 5).is_err());
        assert!(rebuild(&[(0, 0, vec![])], 9).is_err());
    }
}
