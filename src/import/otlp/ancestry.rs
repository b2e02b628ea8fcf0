//! Each span's nearest ancestor of a kind, found for the whole trace at once: every parent
//! chain is walked once in all (what a walk finds is kept for the spans below), so a trace of
//! deeply nested spans costs linear time, and a chain that loops back on itself ends the walk.

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

#[cfg(test)]
mod tests {
    use super::nearest;

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
