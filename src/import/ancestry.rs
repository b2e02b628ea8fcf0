//! Each span's nearest ancestor of a kind, and the trace's nesting depth, found for the whole
//! trace at once: every parent chain is walked once in all (what a walk finds is kept for the
//! spans below), so a trace of deeply nested spans costs linear time, and a chain that loops
//! back on itself ends the walk. Shared by the span-tree readers (OTLP, Langfuse, the OpenAI
//! Agents SDK), with the nesting bound they all refuse past.

/// The deepest nesting of spans a trace may have. Agent frameworks nest a few dozen levels;
/// deeper is a loop in an exporter or a recursion without end, and is refused, not read.
pub const MAX_NESTING: usize = 1_000;

/// Refuses a trace whose spans nest deeper than [`MAX_NESTING`]; `span` names a span by index.
pub fn check_nesting(trace_id: &str, parent: &[Option<usize>], span: impl Fn(usize) -> String) -> Result<(), String> {
    let (depth, at) = deepest(parent);
    // A root alone is one level.
    let levels = depth + 1;
    if levels <= MAX_NESTING {
        return Ok(());
    }
    Err(format!(
        "trace {trace_id}: its spans nest {levels} levels deep (at {}); Baton reads traces nested at most \
         {MAX_NESTING} levels deep, since deeper is a loop in the exporter or a recursion without end; not \
         imported — check what parents the exporter gives its spans",
        span(at)
    ))
}

/// For every span, the nearest strict ancestor for which `hit` holds (by index), if any.
pub fn nearest(parent: &[Option<usize>], hit: impl Fn(usize) -> bool) -> Vec<Option<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unknown,
        Walking,
        Done(Option<usize>),
    }
    let mut state = vec![State::Unknown; parent.len()];
    let mut path = vec![];
    for start in 0..parent.len() {
        if state[start] != State::Unknown {
            continue;
        }
        path.clear();
        let mut cur = start;
        let found = loop {
            state[cur] = State::Walking;
            path.push(cur);
            let Some(p) = parent[cur].filter(|p| *p < parent.len()) else { break None };
            if hit(p) {
                break Some(p);
            }
            match state[p] {
                State::Done(v) => break v,
                // A loop in the recorded parents: nothing above.
                State::Walking => break None,
                State::Unknown => cur = p,
            }
        };
        // Every span on the path has the same nearest hit: none of them is one.
        for n in &path {
            state[*n] = State::Done(found);
        }
    }
    state.into_iter().map(|s| if let State::Done(v) = s { v } else { None }).collect()
}

/// The deepest span: how many ancestors it has (a chain that loops counts its spans once) and
/// its index, in linear time (each span's depth is found once and kept for the spans below).
pub fn deepest(parent: &[Option<usize>]) -> (usize, usize) {
    const UNKNOWN: usize = usize::MAX;
    const WALKING: usize = usize::MAX - 1;
    let mut depth = vec![UNKNOWN; parent.len()];
    let mut path = vec![];
    let mut best = (0, 0);
    for start in 0..parent.len() {
        path.clear();
        let mut cur = start;
        // Up to the first span whose depth is known, a root, or a span seen on this walk (a loop).
        let mut above = loop {
            if depth[cur] != UNKNOWN {
                break if depth[cur] == WALKING { 0 } else { depth[cur] + 1 };
            }
            depth[cur] = WALKING;
            path.push(cur);
            match parent[cur].filter(|p| *p < parent.len()) {
                Some(p) => cur = p,
                None => break 0,
            }
        };
        for n in path.iter().rev() {
            depth[*n] = above;
            above += 1;
        }
        if let Some(&first) = path.first()
            && depth[first] > best.0
        {
            best = (depth[first], first);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{deepest, nearest};

    #[test]
    fn the_deepest_span_in_one_pass() {
        // 0 <- 1 <- 2 <- 3, and 4 <- 5
        let parent = [None, Some(0), Some(1), Some(2), None, Some(4)];
        assert_eq!(deepest(&parent), (3, 3));
        let n: usize = 300_000;
        let chain: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
        assert_eq!(deepest(&chain), (n - 1, n - 1));
        // Listed deepest first: found the same way.
        let reversed: Vec<Option<usize>> = (0..n).map(|i| (i + 1 < n).then_some(i + 1)).collect();
        assert_eq!(deepest(&reversed), (n - 1, 0));
        // A loop ends the walk: 0 -> 1 -> 2 -> 0 (0 is met first: the loop's top is 2), 3 below 2.
        assert_eq!(deepest(&[Some(1), Some(2), Some(0), Some(2)]), (2, 0));
    }

    #[test]
    fn the_nearest_hit_above_each_span_in_one_pass() {
        // 0 <- 1 <- 2 <- 3, and 4 <- 5; hits: 0 and 2.
        let parent = [None, Some(0), Some(1), Some(2), None, Some(4)];
        let n = nearest(&parent, |j| j == 0 || j == 2);
        assert_eq!(n, vec![None, Some(0), Some(0), Some(2), None, None]);
    }

    #[test]
    fn a_looping_chain_ends() {
        let parent = [Some(1), Some(0), Some(1)];
        assert_eq!(nearest(&parent, |_| false), vec![None, None, None]);
    }

    #[test]
    fn a_long_chain_is_linear() {
        let n: usize = 200_000;
        let parent: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
        let near = nearest(&parent, |j| j % 1000 == 0);
        assert_eq!(near[1999], Some(1000));
        assert_eq!(near[1000], Some(0));
    }
}
