//! Keeps a YAML file's comments when Baton writes the file anew: each comment is tied to the key
//! (or list item) it sits above or beside, and put back there in the new text.
//!
//! The new text comes from the serializer, so it has no comments of its own. The old file is read
//! with a YAML parser that reports where every node is; a `#` outside every scalar is a comment.
//! A comment above a line belongs to the first key or item that starts on that line; a comment
//! at the end of a line belongs to that line's key. Items of a list are known by their `id` (or
//! `name`), so a comment stays with its agent when agents are added, removed or reordered; a
//! comment whose key is gone is dropped with it.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, Span};

/// One step of a path to a node: a mapping key, or a list item by identity or position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Seg {
    Key(String),
    Item(String),
    Index(usize),
}

/// Where each node starts, and the text's comments.
struct Outline {
    /// (line, path by identity, path by position) for every key and list item, in text order.
    starts: Vec<(usize, Vec<Seg>, Vec<Seg>)>,
    /// (line, column, text) of every comment; `column` counts characters.
    comments: Vec<(usize, usize, String)>,
}

/// The comments found above or beside one node of the old text.
#[derive(Default)]
struct Attached {
    blank_before: bool,
    above: Vec<String>,
    trailing: Option<String>,
}

/// `new` with the comments of `old` put back beside the keys they described. `None` when either
/// text is not YAML the parser can read (the caller then keeps what it can).
pub fn carry(old: &str, new: &str) -> Option<String> {
    if !old.contains('#') {
        return Some(new.to_owned());
    }
    let old_outline = outline(old)?;
    if old_outline.comments.is_empty() {
        return Some(new.to_owned());
    }
    let new_outline = outline(new)?;
    let old_lines: Vec<&str> = old.lines().collect();

    // The first node starting on each old line.
    let mut first_on_line: HashMap<usize, usize> = HashMap::new();
    for (i, (line, _, _)) in old_outline.starts.iter().enumerate() {
        first_on_line.entry(*line).or_insert(i);
    }
    let mut attached: HashMap<usize, Attached> = HashMap::new();
    let mut header = Vec::new();
    let mut footer = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    let mut pending_blank = false;
    let mut seen_content = false;
    let mut comments = old_outline.comments.iter().peekable();
    for (n, text) in old_lines.iter().enumerate() {
        let line = n + 1;
        let comment = comments.next_if(|(l, _, _)| *l == line);
        let before = comment.map(|(_, col, _)| text.chars().take(*col).collect::<String>());
        let is_full_line = before.as_deref().is_some_and(|b| b.trim().is_empty());
        if text.trim().is_empty() {
            if !pending.is_empty() || seen_content {
                pending_blank = pending.is_empty() || pending_blank;
            }
            continue;
        }
        if is_full_line {
            let (_, _, c) = comment.expect("a full-line comment");
            if seen_content {
                pending.push(c.clone());
            } else {
                header.push(c.clone());
            }
            continue;
        }
        let Some(&node) = first_on_line.get(&line) else { continue };
        seen_content = true;
        let entry = attached.entry(node).or_default();
        entry.blank_before = pending_blank && !pending.is_empty();
        entry.above.append(&mut pending);
        pending_blank = false;
        if let Some((_, _, c)) = comment {
            entry.trailing = Some(c.clone());
        }
    }
    footer.append(&mut pending);

    // Old nodes by identity path and by position path; each is used once.
    let mut by_ident: HashMap<&Vec<Seg>, usize> = HashMap::new();
    let mut by_index: HashMap<&Vec<Seg>, usize> = HashMap::new();
    for (i, (_, ident, index)) in old_outline.starts.iter().enumerate() {
        if attached.contains_key(&i) {
            by_ident.entry(ident).or_insert(i);
            by_index.entry(index).or_insert(i);
        }
    }
    // A node is found by identity; by position only where the old item had no identity (a list
    // whose items gained ids, as edges do when first saved), never in place of another item.
    let mut placed: HashMap<usize, Attached> = HashMap::new();
    for pass in [false, true] {
        for (line, ident, index) in &new_outline.starts {
            if placed.contains_key(line) {
                continue;
            }
            let old = if pass {
                by_index.get(index).copied().filter(|&i| {
                    let old_ident = &old_outline.starts[i].1;
                    ident.iter().zip(old_ident).all(|(n, o)| !matches!(n, Seg::Item(_)) || matches!(o, Seg::Index(_)))
                })
            } else {
                by_ident.get(ident).copied()
            };
            if let Some(a) = old.and_then(|i| attached.remove(&i)) {
                placed.insert(*line, a);
            }
        }
    }

    let mut out = String::with_capacity(new.len() + old.len() / 4);
    for c in &header {
        out.push_str(c);
        out.push('\n');
    }
    for (n, text) in new.lines().enumerate() {
        let indent: String = text.chars().take_while(|c| *c == ' ').collect();
        let a = placed.remove(&(n + 1));
        if let Some(a) = &a {
            if a.blank_before && n > 0 {
                out.push('\n');
            }
            for c in &a.above {
                out.push_str(&indent);
                out.push_str(c);
                out.push('\n');
            }
        }
        out.push_str(text);
        if let Some(t) = a.as_ref().and_then(|a| a.trailing.as_ref()) {
            out.push_str("  ");
            out.push_str(t);
        }
        out.push('\n');
    }
    for c in &footer {
        out.push_str(c);
        out.push('\n');
    }
    Some(out)
}

/// An open container while the events are walked.
enum Open {
    Map { key: Option<(String, usize)>, awaiting_key: bool },
    Seq { next: usize },
}

/// Reads the text's nodes and comments. Paths by identity need an item's `id`, which comes after
/// the item starts, so items are given their identity when their mapping's `id` key is read.
fn outline(text: &str) -> Option<Outline> {
    let mut starts: Vec<(usize, Vec<Seg>, Vec<Seg>)> = Vec::new();
    let mut scalars: Vec<Span> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // Path segments of the open containers (by identity and by position), and for each open
    // list item the index in `starts` of every node below it (to rename them once its id is known).
    let mut ident: Vec<Seg> = Vec::new();
    let mut index: Vec<Seg> = Vec::new();
    let mut item_nodes: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut parser = Parser::new_from_str(text);
    while let Some(next) = parser.next_event() {
        let (event, span) = next.ok()?;
        let starts_node = matches!(event, Event::Scalar(..) | Event::MappingStart(..) | Event::SequenceStart(..));
        if starts_node {
            // A key of a mapping: remember it; its value's events follow.
            if let Some(Open::Map { key, awaiting_key }) = stack.last_mut()
                && *awaiting_key
            {
                let Event::Scalar(k, ..) = &event else { return None }; // a complex key
                *key = Some((k.to_string(), span.start.line()));
                *awaiting_key = false;
                scalars.push(span);
                continue;
            }
            // The node is a value: of a key, or an item of a list.
            let line = match stack.last_mut() {
                Some(Open::Map { key: Some((k, line)), .. }) => {
                    ident.push(Seg::Key(k.clone()));
                    index.push(Seg::Key(k.clone()));
                    Some(*line)
                }
                Some(Open::Seq { next }) => {
                    ident.push(Seg::Index(*next));
                    index.push(Seg::Index(*next));
                    *next += 1;
                    item_nodes.push((ident.len() - 1, Vec::new()));
                    Some(span.start.line())
                }
                _ => None,
            };
            if let Some(line) = line {
                let node = starts.len();
                starts.push((line, ident.clone(), index.clone()));
                for (_, nodes) in &mut item_nodes {
                    nodes.push(node);
                }
            }
        }
        match event {
            Event::Scalar(value, ..) => {
                scalars.push(span);
                // An item's `id` (or `name`) names the item it belongs to.
                let named = matches!(index.last(), Some(Seg::Key(k)) if k == "id" || k == "name");
                if named && index.len() >= 2 {
                    let depth = index.len() - 2;
                    if let Some((at, nodes)) = item_nodes.last().filter(|(at, _)| *at == depth) {
                        let better = matches!(ident[*at], Seg::Index(_))
                            || matches!(index.last(), Some(Seg::Key(k)) if k == "id");
                        if better {
                            let seg = Seg::Item(value.to_string());
                            ident[*at] = seg.clone();
                            for &n in nodes {
                                starts[n].1[*at] = seg.clone();
                            }
                        }
                    }
                }
                close_value(&mut stack, &mut ident, &mut index, &mut item_nodes);
            }
            Event::MappingStart(..) => stack.push(Open::Map { key: None, awaiting_key: true }),
            Event::SequenceStart(..) => stack.push(Open::Seq { next: 0 }),
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                close_value(&mut stack, &mut ident, &mut index, &mut item_nodes);
            }
            Event::Alias(_) => close_value(&mut stack, &mut ident, &mut index, &mut item_nodes),
            _ => {}
        }
    }
    Some(Outline { starts, comments: find_comments(text, &scalars) })
}

/// After a value ends: the mapping waits for its next key; the path steps back up.
fn close_value(stack: &mut [Open], ident: &mut Vec<Seg>, index: &mut Vec<Seg>, items: &mut Vec<(usize, Vec<usize>)>) {
    match stack.last_mut() {
        Some(Open::Map { key, awaiting_key }) => {
            *key = None;
            *awaiting_key = true;
        }
        Some(Open::Seq { .. }) => {}
        None => return,
    }
    ident.pop();
    index.pop();
    if items.last().is_some_and(|(at, _)| *at == ident.len()) {
        items.pop();
    }
}

/// Every `#` that starts a comment: outside every scalar, at a line's start or after a blank.
fn find_comments(text: &str, scalars: &[Span]) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut spans = scalars.iter().map(|s| (s.start.index(), s.end.index())).peekable();
    let mut at = 0usize; // character index of the line's start
    for (n, line) in text.split('\n').enumerate() {
        let mut prev_blank = true;
        for (col, c) in line.chars().enumerate() {
            let i = at + col;
            while spans.next_if(|(_, end)| *end <= i).is_some() {}
            let inside = spans.peek().is_some_and(|(start, _)| *start <= i);
            if c == '#' && prev_blank && !inside {
                out.push((n + 1, col, line.chars().skip(col).collect::<String>().trim_end().to_owned()));
                break;
            }
            prev_blank = c == ' ' || c == '\t';
        }
        at += line.chars().count() + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_inside_a_string_is_not_a_comment() {
        let text = "a: 'x #1'\nb: |\n  # not a comment\n  text\n# a comment\nc: 1 # trailing\n";
        let o = outline(text).unwrap();
        let found: Vec<_> = o.comments.iter().map(|(l, c, t)| (*l, *c, t.as_str())).collect();
        assert_eq!(found, vec![(5, 0, "# a comment"), (6, 5, "# trailing")]);
    }

    #[test]
    fn items_are_known_by_their_id() {
        let o = outline("agents:\n  - name: A\n    id: a\n  - id: b\n").unwrap();
        let paths: Vec<_> = o.starts.iter().map(|(l, p, _)| (*l, p.clone())).collect();
        let agents = || Seg::Key("agents".into());
        assert!(paths.contains(&(2, vec![agents(), Seg::Item("a".into())])));
        assert!(paths.contains(&(3, vec![agents(), Seg::Item("a".into()), Seg::Key("id".into())])));
        assert!(paths.contains(&(4, vec![agents(), Seg::Item("b".into())])));
    }
}
