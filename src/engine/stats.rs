//! Node accounting and heuristic counters: the one place where a count is defined and the one
//! API through which the search changes one.
//!
//! The documents' tables count different things: 000's minimax table counts leaves at the
//! horizon (equal to perft), 003's killer table counts the nodes of an alpha-beta search with
//! quiescence. So interior nodes, horizon leaves and quiescence nodes are separate counters,
//! each incremented in exactly one place of the search.
//!
//! Every heuristic (and every form of one, see `Counter`) has three counters, with one meaning
//! for all of them (`DEFINITION`); what each means for one heuristic is stated once, in its
//! registry row, and printed by `searchlab heuristics`:
//! - `tested`: the decision point was reached and the heuristic's own preconditions held: it
//!   could have acted;
//! - `fired`: it acted;
//! - `overruled`: its action was undone (a verification contradicted it, or a re-search
//!   replaced it), so `overruled <= fired`.
//!
//! Counters change only through the search's gate (`search/gate.rs`), which calls
//! `SearchStats::decided`, `proved` and `overruled`.

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::heuristics::{Id, REGISTRY};

/// What one search (or one iteration) visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Nodes with remaining depth > 0 (the root included).
    pub interior: u64,
    /// Nodes reached with remaining depth 0: the horizon leaves.
    pub horizon: u64,
    /// Nodes inside the quiescence search, below the horizon leaf that started it.
    pub quiescence: u64,
    /// Deepest ply reached at node entry, quiescence included.
    pub seldepth: u32,
    /// Beta cut-offs by a move in the main search (interior nodes).
    pub cutoffs: u64,
    /// Of which by the node's first legal move: `first_move_cutoffs / cutoffs` is the
    /// standard measure of move-ordering quality.
    pub first_move_cutoffs: u64,
    /// Sum over the interior cut-offs of the cutting move's 1-based index among the node's
    /// legal moves (`/ cutoffs`: the mean index of the cut-off move).
    pub cutoff_index_sum: u64,
    /// Beta cut-offs by a capture (or evasion) in the quiescence search, stand pat excluded.
    /// Kept apart: captures-first makes almost every quiescence cut-off a first-move one, so
    /// pooled with the interior they would flatter a weak interior order.
    pub quiescence_cutoffs: u64,
    /// Of which by the node's first move.
    pub quiescence_first_move_cutoffs: u64,
    /// Sum of the cutting move's 1-based index over the quiescence cut-offs.
    pub quiescence_cutoff_index_sum: u64,
    /// Per heuristic (and form): tested, fired, overruled.
    pub heuristics: HeuristicCounters,
}

impl SearchStats {
    /// Every node visited.
    pub fn nodes(&self) -> u64 {
        self.interior + self.horizon + self.quiescence
    }

    /// Share of beta cut-offs made by the first move (0 when there were none).
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.cutoffs == 0 {
            0.0
        } else {
            self.first_move_cutoffs as f64 / self.cutoffs as f64
        }
    }

    /// A move at 1-based `index` among the node's moves cut off an interior node.
    #[inline]
    pub fn cutoff(&mut self, index: usize) {
        self.cutoffs += 1;
        self.first_move_cutoffs += u64::from(index == 1);
        self.cutoff_index_sum += index as u64;
    }

    /// A move at 1-based `index` cut off a quiescence node.
    #[inline]
    pub fn quiescence_cutoff(&mut self, index: usize) {
        self.quiescence_cutoffs += 1;
        self.quiescence_first_move_cutoffs += u64::from(index == 1);
        self.quiescence_cutoff_index_sum += index as u64;
    }

    /// Mean 1-based index of the move that cut an interior node.
    pub fn mean_cutoff_index(&self) -> Option<f64> {
        (self.cutoffs > 0).then(|| self.cutoff_index_sum as f64 / self.cutoffs as f64)
    }

    /// A heuristic's decision was evaluated; `fired` when it acted.
    #[inline]
    pub fn decided(&mut self, counter: Counter, fired: bool) {
        let c = &mut self.heuristics.0[counter.0 as usize];
        c.tested += 1;
        c.fired += u64::from(fired);
    }

    /// An ordering decision counted as tested (`decided(counter, false)`) acted after all:
    /// the move it placed ended as the node's best.
    #[inline]
    pub fn proved(&mut self, counter: Counter) {
        self.heuristics.0[counter.0 as usize].fired += 1;
    }

    /// A heuristic's action was cancelled by a verification or a re-search.
    #[inline]
    pub fn overruled(&mut self, counter: Counter) {
        self.heuristics.0[counter.0 as usize].overruled += 1;
    }
}

impl AddAssign for SearchStats {
    fn add_assign(&mut self, other: Self) {
        self.interior += other.interior;
        self.horizon += other.horizon;
        self.quiescence += other.quiescence;
        self.seldepth = self.seldepth.max(other.seldepth);
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.cutoff_index_sum += other.cutoff_index_sum;
        self.quiescence_cutoffs += other.quiescence_cutoffs;
        self.quiescence_first_move_cutoffs += other.quiescence_first_move_cutoffs;
        self.quiescence_cutoff_index_sum += other.quiescence_cutoff_index_sum;
        self.heuristics += other.heuristics;
    }
}

/// One counted decision: a heuristic, or one form of a heuristic whose registry row lists
/// forms (`futility.frontier` and `futility.pre_frontier` are counted apart, so a rate means
/// one thing). Made at compile time by `counter!`, which refuses a form the row does not list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Counter(u16);

/// The registry's `mirrors` key for the quiescence stand pat, which is no counter.
pub const STAND_PAT: &str = "stand_pat";

/// How many counters there are: one per heuristic without forms, one per form otherwise.
pub const COUNTER_COUNT: usize = first_counter(REGISTRY.len());

/// The index of the first counter of the heuristic at registry index `index`.
const fn first_counter(index: usize) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < index {
        total += form_count(i);
        i += 1;
    }
    total
}

const fn form_count(index: usize) -> usize {
    let forms = REGISTRY[index].forms.len();
    if forms == 0 { 1 } else { forms }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Counter {
    /// The counter of a heuristic counted under its name alone.
    pub const fn of(id: Id) -> Counter {
        assert!(
            REGISTRY[id as usize].forms.is_empty(),
            "this heuristic is counted by form: name the form"
        );
        Counter(first_counter(id as usize) as u16)
    }

    /// The counter of one form of a heuristic.
    pub const fn form(id: Id, form: &str) -> Counter {
        let forms = REGISTRY[id as usize].forms;
        let mut i = 0;
        while i < forms.len() {
            if same(forms[i], form) {
                return Counter((first_counter(id as usize) + i) as u16);
            }
            i += 1;
        }
        panic!("the registry row lists no such form")
    }

    /// Every counter, in registry order.
    pub fn all() -> impl Iterator<Item = Counter> {
        (0..COUNTER_COUNT as u16).map(Counter)
    }

    /// The counters of one heuristic.
    pub fn of_heuristic(id: Id) -> impl Iterator<Item = Counter> {
        let first = first_counter(id as usize);
        (first..first + form_count(id as usize)).map(|i| Counter(i as u16))
    }

    /// The heuristic counted.
    pub fn id(self) -> Id {
        COUNTER_IDS[self.0 as usize]
    }

    /// The form counted, when the heuristic has forms.
    pub fn form_name(self) -> Option<&'static str> {
        let id = self.id();
        id.info()
            .forms
            .get(self.0 as usize - first_counter(id as usize))
            .copied()
    }

    /// Its key in results and reports: `killers`, or `futility.frontier` for a form.
    pub fn key(self) -> String {
        match self.form_name() {
            Some(form) => format!("{}.{form}", self.id().name()),
            None => self.id().name().to_string(),
        }
    }

    /// Its registry `mirrors` entries: the mirror keys listed for its form.
    fn mirror_keys(self) -> impl Iterator<Item = &'static str> {
        let form = self.form_name().unwrap_or("*");
        self.id()
            .info()
            .mirrors
            .iter()
            .filter(move |(audited, _)| *audited == form)
            .map(|(_, mirror)| *mirror)
    }

    /// The tests that would take this decision again in the node its audit searches (registry
    /// `mirrors`), which the audit leaves out there.
    pub fn mirrors(self) -> impl Iterator<Item = Counter> {
        self.mirror_keys().filter_map(Counter::from_key)
    }

    /// A skipped move's child stands pat on this very test when it is a horizon node: the
    /// audit of that stratum cannot disagree (registry `mirrors`: `stand_pat`).
    pub fn mirrored_by_stand_pat(self) -> bool {
        self.mirror_keys().any(|key| key == STAND_PAT)
    }

    /// What its counts mean (the heuristic's registry row).
    pub fn meaning(self) -> &'static str {
        let id = self.id();
        id.info().meanings[self.0 as usize - first_counter(id as usize)]
    }

    /// Look a counter up by its key.
    pub fn from_key(key: &str) -> Option<Counter> {
        let (name, form) = match key.split_once('.') {
            Some((name, form)) => (name, Some(form)),
            None => (key, None),
        };
        let id = Id::from_name(name)?;
        Counter::of_heuristic(id).find(|c| c.form_name() == form)
    }
}

/// The heuristic of each counter.
const COUNTER_IDS: [Id; COUNTER_COUNT] = {
    let mut ids = [REGISTRY[0].id; COUNTER_COUNT];
    let mut i = 0;
    while i < REGISTRY.len() {
        let first = first_counter(i);
        let mut k = 0;
        while k < form_count(i) {
            ids[first + k] = REGISTRY[i].id;
            k += 1;
        }
        i += 1;
    }
    ids
};

/// A counter, checked at compile time: `counter!(Killers)` or `counter!(Futility.frontier)`.
macro_rules! counter {
    ($id:ident) => {
        const { $crate::engine::stats::Counter::of($crate::engine::heuristics::Id::$id) }
    };
    ($id:ident . $form:ident) => {
        const {
            $crate::engine::stats::Counter::form(
                $crate::engine::heuristics::Id::$id,
                stringify!($form),
            )
        }
    };
}
pub(crate) use counter;

/// The meaning shared by every counter (each registry row says what it means for its heuristic).
pub const DEFINITION: &str = "tested = the decision point was reached and the heuristic's own \
preconditions held (it could have acted); fired = it acted; overruled = its action was undone \
(a verification contradicted it or a re-search replaced it). Rates divide by tested.";

/// The three counts of one counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// The decision was evaluated where the heuristic applies.
    pub tested: u64,
    /// The heuristic acted.
    pub fired: u64,
    /// Its action was cancelled by a verification or a re-search.
    pub overruled: u64,
}

impl AddAssign for Counters {
    /// Sums saturate at `u64::MAX` rather than wrap: an engine's counter lines may hold any
    /// u64, and a wrapped sum would read as a small count (or as none at all).
    fn add_assign(&mut self, other: Self) {
        self.tested = self.tested.saturating_add(other.tested);
        self.fired = self.fired.saturating_add(other.fired);
        self.overruled = self.overruled.saturating_add(other.overruled);
    }
}

/// Counters of every heuristic and form, serialised as a map keyed by `Counter::key`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeuristicCounters([Counters; COUNTER_COUNT]);

impl Default for HeuristicCounters {
    fn default() -> Self {
        HeuristicCounters([Counters::default(); COUNTER_COUNT])
    }
}

impl HeuristicCounters {
    /// The counts of one counter.
    pub fn get(&self, counter: Counter) -> Counters {
        self.0[counter.0 as usize]
    }

    /// Set one counter's counts (an engine's counter line, read back).
    pub fn set(&mut self, counter: Counter, counts: Counters) {
        self.0[counter.0 as usize] = counts;
    }

    /// Every counter that counted something, with its counts.
    pub fn nonzero(&self) -> impl Iterator<Item = (Counter, Counters)> + '_ {
        Counter::all()
            .map(|c| (c, self.get(c)))
            .filter(|(_, counts)| *counts != Counters::default())
    }
}

impl AddAssign for HeuristicCounters {
    fn add_assign(&mut self, other: Self) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }
}

impl Serialize for HeuristicCounters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Counters that never counted are left out (read back as zeros): most runs switch on
        // a few of the heuristics, and results files stay a third of the size.
        let map: BTreeMap<String, Counters> = self
            .nonzero()
            .map(|(c, counts)| (c.key(), counts))
            .collect();
        map.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for HeuristicCounters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, Counters>::deserialize(deserializer)?;
        let mut counters = HeuristicCounters::default();
        for (key, value) in map {
            let counter = Counter::from_key(&key)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown counter '{key}'")))?;
            counters.0[counter.0 as usize] = value;
        }
        Ok(counters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts near 2⁶⁴ (an engine's counter lines may say anything) saturate when summed:
    /// 2⁶³ twice is not 0, and no sum wraps to a small count.
    #[test]
    fn counter_sums_saturate_instead_of_wrapping() {
        let big = Counters {
            tested: 1 << 63,
            fired: u64::MAX - 3,
            overruled: 5,
        };
        let mut sum = big;
        sum += big;
        assert_eq!(
            sum,
            Counters {
                tested: u64::MAX,
                fired: u64::MAX,
                overruled: 10
            }
        );
    }

    #[test]
    fn adding_sums_counts_and_keeps_the_deepest_seldepth() {
        let mut a = SearchStats {
            interior: 1,
            horizon: 2,
            quiescence: 3,
            seldepth: 7,
            cutoffs: 4,
            first_move_cutoffs: 3,
            ..SearchStats::default()
        };
        let b = SearchStats {
            interior: 10,
            horizon: 20,
            quiescence: 30,
            seldepth: 5,
            cutoffs: 6,
            first_move_cutoffs: 6,
            ..SearchStats::default()
        };
        a += b;
        assert_eq!(a.nodes(), 66);
        assert_eq!(a.seldepth, 7);
        assert_eq!(a.first_move_cutoff_rate(), 0.9);
    }

    #[test]
    fn every_form_of_the_registry_has_its_own_counter() {
        let keys: Vec<String> = Counter::all().map(Counter::key).collect();
        let expected: usize = REGISTRY.iter().map(|i| i.forms.len().max(1)).sum();
        assert_eq!(keys.len(), expected);
        assert!(keys.contains(&"futility.frontier".to_string()));
        assert!(keys.contains(&"futility.pre_frontier".to_string()));
        assert!(keys.contains(&"killers".to_string()));
        assert!(!keys.contains(&"futility".to_string()));
        for counter in Counter::all() {
            assert_eq!(Counter::from_key(&counter.key()), Some(counter));
            assert!(Counter::of_heuristic(counter.id()).any(|c| c == counter));
        }
        assert_eq!(counter!(Tt.hash_move).id(), Id::Tt);
        assert_eq!(counter!(Tt.hash_move).form_name(), Some("hash_move"));
        assert_eq!(counter!(Killers).form_name(), None);
    }

    #[test]
    fn counts_go_through_the_api_serialise_by_key_and_add() {
        let mut stats = SearchStats::default();
        stats.decided(counter!(Killers), true);
        stats.decided(counter!(Killers), false);
        stats.decided(counter!(Futility.frontier), true);
        stats.overruled(counter!(Futility.frontier));
        let c = stats.heuristics.get(counter!(Killers));
        assert_eq!((c.tested, c.fired, c.overruled), (2, 1, 0));
        let json = serde_json::to_value(stats.heuristics).unwrap();
        assert_eq!(json["killers"]["fired"], 1);
        assert_eq!(json["futility.frontier"]["overruled"], 1);
        assert!(json.get("history").is_none(), "zero counters are left out");
        let back: HeuristicCounters = serde_json::from_value(json).unwrap();
        assert_eq!(back, stats.heuristics);
        let mut doubled = stats;
        doubled += stats;
        assert_eq!(doubled.heuristics.get(counter!(Killers)).tested, 4);
        let unknown = serde_json::json!({"futility": {"tested": 1, "fired": 0, "overruled": 0}});
        assert!(serde_json::from_value::<HeuristicCounters>(unknown).is_err());
    }
}
