//! What a piece of text speaks about, read by its form rather than by domain word lists: the
//! terms it names (identifiers, numbers, names, content words, each weighed by how rare it is in
//! the run) and its grammatical qualifiers (negation, condition, obligation, limit), which are
//! closed classes of English function words, not a vocabulary of any domain.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How a term looks, which says how much it pins down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TermKind {
    /// Letters and digits, an underscore or inner capitals: `C-77`, `FIX_4812`, `UN3480`.
    Ident,
    /// A number, an amount or a percentage: `4812`, `$1,200`, `15%`.
    Number,
    /// A capitalised word inside a sentence: a name.
    Name,
    /// Any other content word of four letters or more.
    Word,
}

impl TermKind {
    /// How much a shared term of this kind says that two texts speak of the same thing.
    pub fn weight(self) -> f32 {
        match self {
            TermKind::Ident => 1.6,
            TermKind::Number => 1.3,
            TermKind::Name => 1.2,
            TermKind::Word => 0.6,
        }
    }
}

/// A grammatical qualifier: what turns a statement into a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Qualifier {
    Negation,
    Condition,
    Obligation,
    Limit,
}

impl Qualifier {
    pub fn as_str(self) -> &'static str {
        match self {
            Qualifier::Negation => "a negation",
            Qualifier::Condition => "a condition",
            Qualifier::Obligation => "an obligation",
            Qualifier::Limit => "a limit",
        }
    }
}

/// English function words (articles, pronouns, auxiliaries, prepositions, conjunctions and
/// discourse words): never terms.
const STOP: &[&str] = &[
    "a",
    "about",
    "above",
    "across",
    "after",
    "again",
    "against",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "back",
    "be",
    "been",
    "before",
    "being",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "done",
    "each",
    "either",
    "else",
    "even",
    "ever",
    "every",
    "for",
    "from",
    "further",
    "get",
    "gets",
    "got",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "however",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "let",
    "like",
    "make",
    "made",
    "many",
    "me",
    "more",
    "most",
    "much",
    "my",
    "now",
    "of",
    "off",
    "ok",
    "okay",
    "on",
    "once",
    "one",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "please",
    "same",
    "she",
    "should",
    "so",
    "some",
    "still",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "thus",
    "to",
    "too",
    "two",
    "up",
    "us",
    "very",
    "via",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "yes",
    "yet",
    "you",
    "your",
    "yours",
    "thanks",
    "thank",
    "hello",
    "sure",
    "going",
    "want",
    "wants",
    "know",
    "think",
    "well",
    "really",
    "today",
    "now",
    "there's",
    "that's",
    "it's",
    "i'm",
    "we're",
    "you're",
    "they're",
    "don't",
    "can't",
    "won't",
    "isn't",
    "aren't",
    "wasn't",
    "doesn't",
    "didn't",
    "into",
    "onto",
    "upon",
    "within",
    "without",
    "unless",
    "until",
    "only",
    "except",
    "must",
    "need",
    "needs",
    "never",
    "none",
    "not",
    "no",
    "nor",
    "cannot",
    "shall",
    "may",
    "might",
    "least",
    "less",
    "fewer",
    "under",
    "below",
    "maximum",
    "minimum",
    "max",
    "min",
    "provided",
    "pending",
    "whether",
    "required",
    "requires",
    "require",
    "have",
    "having",
    "ask",
    "asks",
    "asked",
    "tell",
    "told",
    "say",
    "says",
    "said",
    "call",
    "called",
    "handing",
    "hand",
    "routing",
    "route",
    "give",
    "given",
    "take",
    "took",
    "need",
    "next",
    "first",
    "last",
    "new",
    "old",
    "good",
    "great",
    "best",
    "nice",
    "fine",
    "true",
    "false",
    "null",
    "none",
    "assistant",
    "user",
];

const NEGATION: &[&str] = &["not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without", "cannot"];
const CONDITION: &[&str] = &["if", "unless", "until", "only", "except", "provided", "pending", "once", "whether"];
const OBLIGATION: &[&str] =
    &["must", "shall", "should", "need", "needs", "required", "requires", "require", "mandatory"];
const LIMIT: &[&str] = &[
    "most", "least", "under", "over", "below", "above", "maximum", "minimum", "max", "min", "within", "exceed",
    "exceeds", "fewer", "less", "more", "than", "upto",
];

fn is_stop(w: &str) -> bool {
    static SET: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| STOP.iter().copied().collect());
    SET.contains(w)
}

/// The words of a text with their byte offsets, split on anything but letters, digits and the
/// joiners inside identifiers (`-`, `_`, `.`, `$`, `%`, `,` between digits, `'`).
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = vec![];
    let mut start = None;
    let bytes = text.as_bytes();
    let joiner = |i: usize| -> bool {
        let c = bytes[i];
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(i + 1).copied();
        let alnum = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
        match c {
            b'-' | b'_' | b'\'' => alnum(prev) && alnum(next),
            b'.' | b',' => prev.is_some_and(|b| b.is_ascii_digit()) && next.is_some_and(|b| b.is_ascii_digit()),
            b'$' => next.is_some_and(|b| b.is_ascii_digit()),
            b'%' => prev.is_some_and(|b| b.is_ascii_digit()),
            _ => false,
        }
    };
    for (i, ch) in text.char_indices() {
        let part = ch.is_alphanumeric() || (ch.is_ascii() && joiner(i));
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// A light stem so that `batteries`/`battery`, `booked`/`booking` meet: lower case, a
/// possessive and one common inflection taken off words of six letters or more.
fn stem(w: &str) -> String {
    let w = w.trim_end_matches("'s").to_lowercase();
    if w.chars().count() < 6 || w.chars().any(|c| c.is_ascii_digit()) {
        return w;
    }
    for suf in ["ies", "ing", "ed", "es", "s"] {
        if let Some(s) = w.strip_suffix(suf) {
            return if suf == "ies" { format!("{s}y") } else { s.to_owned() };
        }
    }
    w
}

fn kind_of(word: &str, sentence_start: bool) -> Option<TermKind> {
    let has_digit = word.chars().any(|c| c.is_ascii_digit());
    let has_alpha = word.chars().any(|c| c.is_alphabetic());
    if has_digit && !has_alpha {
        let digits = word.chars().filter(|c| c.is_ascii_digit()).count();
        // A lone small number ("2 items", "step 1") pins down little.
        return (digits >= 2 || word.contains(['$', '%', '.'])).then_some(TermKind::Number);
    }
    if has_digit || word.contains('_') {
        return Some(TermKind::Ident);
    }
    let lower = word.to_lowercase();
    if is_stop(&lower) || lower.chars().count() < 3 {
        return None;
    }
    let upper = word.chars().filter(|c| c.is_uppercase()).count();
    if upper >= 2 && word.chars().count() >= 2 {
        return Some(TermKind::Ident);
    }
    if upper == 1 && word.starts_with(char::is_uppercase) && !sentence_start {
        return Some(TermKind::Name);
    }
    (lower.chars().count() >= 4).then_some(TermKind::Word)
}

/// The terms of a text: stem → the strongest kind it appeared as.
pub fn terms(text: &str) -> BTreeMap<String, TermKind> {
    let mut out: BTreeMap<String, TermKind> = BTreeMap::new();
    let mut sentence_start = true;
    let mut last_end = 0;
    for (at, w) in words(text) {
        let between = &text[last_end..at];
        if last_end == 0 || between.contains(['.', '!', '?', ':', '\n', '"', '{', '[', '(']) {
            sentence_start = true;
        }
        if let Some(k) = kind_of(w, sentence_start) {
            let e = out.entry(stem(w)).or_insert(k);
            if k < *e {
                *e = k;
            }
        }
        sentence_start = false;
        last_end = at + w.len();
    }
    out
}

/// Each qualifier a text states with its scope: the terms of the words it governs (up to six
/// words after it, within its sentence; a comparative's `than` reaches back to the words
/// before it too).
pub fn scopes(text: &str) -> Vec<Scope> {
    let ws = words(text);
    let mut out = vec![];
    for (i, (at, w)) in ws.iter().enumerate() {
        let l = w.to_lowercase();
        let q = if l.ends_with("n't") || NEGATION.contains(&l.as_str()) {
            Qualifier::Negation
        } else if CONDITION.contains(&l.as_str()) {
            Qualifier::Condition
        } else if OBLIGATION.contains(&l.as_str()) {
            Qualifier::Obligation
        } else if LIMIT.contains(&l.as_str()) {
            Qualifier::Limit
        } else {
            continue;
        };
        let mut scope = vec![];
        let mut end = at + w.len();
        for (next_at, nw) in ws.iter().skip(i + 1).take(6) {
            if text[end..*next_at].contains(['.', '!', '?', ';', '\n']) {
                break;
            }
            if let Some(k) = kind_of(nw, false) {
                scope.push((stem(nw), k));
            }
            end = next_at + nw.len();
        }
        // The sentence it stands in: from the last stop before it to the next one after.
        let from = text[..*at].rfind(['.', '!', '?', ';', '\n', ':']).map(|p| p + 1).unwrap_or(0);
        let to = text[*at..].find(['.', '!', '?', ';', '\n']).map(|p| at + p).unwrap_or(text.len());
        let sentence = terms(&text[from..to]).into_keys().collect();
        out.push(Scope { qualifier: q, scope, sentence });
    }
    out
}

/// A qualifier, the terms it governs and the terms of its sentence.
pub struct Scope {
    pub qualifier: Qualifier,
    pub scope: Vec<(String, TermKind)>,
    pub sentence: Vec<String>,
}

/// The first word of `text` whose stem is `stem`, as written.
pub fn surface<'a>(text: &'a str, stem_of: &str) -> Option<&'a str> {
    words(text).into_iter().map(|(_, w)| w).find(|w| stem(w) == stem_of)
}

/// The qualifiers a text states.
pub fn qualifiers(text: &str) -> BTreeSet<Qualifier> {
    let mut out = BTreeSet::new();
    for (_, w) in words(text) {
        let l = w.to_lowercase();
        if l.ends_with("n't") || NEGATION.contains(&l.as_str()) {
            out.insert(Qualifier::Negation);
        }
        if CONDITION.contains(&l.as_str()) {
            out.insert(Qualifier::Condition);
        }
        if OBLIGATION.contains(&l.as_str()) {
            out.insert(Qualifier::Obligation);
        }
        if LIMIT.contains(&l.as_str()) {
            out.insert(Qualifier::Limit);
        }
    }
    out
}

/// The quantities a text states: a number and the unit written right after it (`6.1 t`,
/// `28 m`, `45 days`) or before it (`$1,200`), as (unit, value) pairs.
pub fn quantities(text: &str) -> Vec<(String, f64)> {
    let ws = words(text);
    let mut out = vec![];
    for (i, (_, w)) in ws.iter().enumerate() {
        let digits: String = w.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
        if digits.is_empty() || w.chars().any(|c| c.is_alphabetic()) {
            continue;
        }
        let Ok(v) = digits.trim_matches('.').parse::<f64>() else { continue };
        let unit = if w.starts_with('$') {
            Some("$".to_owned())
        } else if w.ends_with('%') {
            Some("%".to_owned())
        } else {
            ws.get(i + 1)
                .map(|(_, u)| u.to_lowercase())
                .filter(|u| u.chars().all(char::is_alphabetic) && u.chars().count() <= 8 && !is_stop(u))
        };
        if let Some(u) = unit {
            out.push((u, v));
        }
    }
    out
}

/// How rare each term is in a run: `ln(1 + n / df)` over `n` texts.
#[derive(Debug, Default)]
pub struct Rarity {
    df: HashMap<String, u32>,
    n: u32,
}

impl Rarity {
    pub fn add(&mut self, terms: &BTreeMap<String, TermKind>) {
        self.n += 1;
        for t in terms.keys() {
            *self.df.entry(t.clone()).or_default() += 1;
        }
    }

    pub fn of(&self, term: &str) -> f32 {
        let df = self.df.get(term).copied().unwrap_or(1).max(1) as f32;
        (1.0 + self.n.max(1) as f32 / df).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_numbers_and_names_are_read_by_their_form() {
        let t = terms("Container C-77 holds lithium batteries (UN3480) for Tahini & Co, $1,200 at 15%.");
        assert_eq!(t.get("c-77"), Some(&TermKind::Ident));
        assert_eq!(t.get("un3480"), Some(&TermKind::Ident));
        assert_eq!(t.get("$1,200"), Some(&TermKind::Number));
        assert_eq!(t.get("15%"), Some(&TermKind::Number));
        assert_eq!(t.get("tahini"), Some(&TermKind::Name));
        assert_eq!(t.get("battery"), Some(&TermKind::Word));
        // The sentence's first word is not a name; function words are not terms.
        assert_eq!(t.get("container"), Some(&TermKind::Word));
        assert!(!t.contains_key("for") && !t.contains_key("at"));
    }

    #[test]
    fn qualifiers_are_grammar_not_domain_words() {
        let q = qualifiers("The crane can't lift more than 12 t unless the outrigger is set.");
        assert!(q.contains(&Qualifier::Negation) && q.contains(&Qualifier::Condition) && q.contains(&Qualifier::Limit));
        assert!(qualifiers("The shipment left Rotterdam on Monday.").is_empty());
    }

    #[test]
    fn quantities_pair_a_number_with_its_unit() {
        let q = quantities("6.1 t at 28 m radius; fee $1,200, 15% off, 3 days");
        assert!(q.contains(&("t".into(), 6.1)) && q.contains(&("m".into(), 28.0)));
        assert!(
            q.contains(&("$".into(), 1200.0)) && q.contains(&("%".into(), 15.0)) && q.contains(&("days".into(), 3.0))
        );
    }

    #[test]
    fn rare_terms_weigh_more() {
        let mut r = Rarity::default();
        for text in ["order 4471 shipped", "order 4471 delayed", "crate 88 damaged"] {
            r.add(&terms(text));
        }
        assert!(r.of("88") > r.of("4471"));
    }
}
