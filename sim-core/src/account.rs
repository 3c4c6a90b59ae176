//! Per-processor time accounting: every nanosecond of every processor in exactly one category.

use crate::SimTime;
use serde::{Deserialize, Serialize};

/// What a processor is doing (ARCHITECTURE.md, "Accounting"): at every moment, exactly one
/// category, so that its category times add up to the makespan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// Node generation and leaf evaluation.
    Search,
    /// CPU time spent on message setup and buffer handling (the paper's `s`).
    Message,
    /// CPU time of interrupt handlers (the interrupt-driven master).
    Interrupt,
    /// Blocked waiting for an answer it asked for (e.g. a global transposition-table probe).
    WaitReply,
    /// Waiting for work or for other processors to finish (synchronization).
    IdleSync,
    /// Reaching shared memory: an access's latency, its wait for a busy bank, and spinning on a
    /// lock or a flag (a shared-memory machine only; zero elsewhere).
    Memory,
}

impl Category {
    /// Every category, in [`Category::index`] order (the order of results columns and of [`CategoryTimes`]).
    pub const ALL: [Category; 6] = [
        Category::Search,
        Category::Message,
        Category::Interrupt,
        Category::WaitReply,
        Category::IdleSync,
        Category::Memory,
    ];
    /// This category's position in [`Category::ALL`] and in [`CategoryTimes`].
    pub fn index(self) -> usize {
        self as usize
    }
    /// The name used in results columns and traces.
    pub fn name(self) -> &'static str {
        match self {
            Category::Search => "search",
            Category::Message => "message",
            Category::Interrupt => "interrupt",
            Category::WaitReply => "wait_reply",
            Category::IdleSync => "idle_sync",
            Category::Memory => "memory",
        }
    }
}

/// A span of time one processor spent in one category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interval {
    /// When the span began.
    pub start: SimTime,
    /// When the span ended (exclusive): the span lasts `end - start`.
    pub end: SimTime,
    /// What the processor was doing throughout the span.
    pub category: Category,
}

/// Time totals per category, indexed by [`Category::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryTimes(pub [u64; 6]);

impl CategoryTimes {
    /// Nanoseconds spent in category `c`.
    pub fn get(&self, c: Category) -> u64 {
        self.0[c.index()]
    }
    /// Nanoseconds in all categories together (the makespan, for a closed [`TimeAccount`]).
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
    /// Adds `other`'s time to this one's, category by category.
    pub fn add(&mut self, other: &CategoryTimes) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += b;
        }
    }
}

/// One processor's clock of categories, kept as a state machine: the processor is always in exactly
/// one category, and switching closes the running span. The totals therefore add up to the time
/// from zero to [`TimeAccount::close`] by construction.
///
/// ```
/// use sim_core::{Category, SimTime, TimeAccount};
/// let mut a = TimeAccount::new(true);
/// a.switch(SimTime(10), Category::Search);
/// a.switch(SimTime(25), Category::Message);
/// a.close(SimTime(30));
/// assert_eq!(a.times().get(Category::IdleSync), 10);
/// assert_eq!(a.times().get(Category::Search), 15);
/// assert_eq!(a.times().total(), 30);
/// assert_eq!(a.intervals().len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct TimeAccount {
    times: CategoryTimes,
    current: Category,
    since: SimTime,
    intervals: Option<Vec<Interval>>,
}

impl TimeAccount {
    /// A processor starts at time zero, idle. `record` keeps every interval (for timelines).
    pub fn new(record: bool) -> Self {
        TimeAccount {
            times: CategoryTimes::default(),
            current: Category::IdleSync,
            since: SimTime::ZERO,
            intervals: record.then(Vec::new),
        }
    }

    /// The category the processor is in now.
    pub fn current(&self) -> Category {
        self.current
    }

    /// From `now` on, the processor is in `category`.
    #[inline]
    pub fn switch(&mut self, now: SimTime, category: Category) {
        assert!(now >= self.since, "accounting went back in time");
        if category == self.current {
            return;
        }
        self.flush(now);
        self.current = category;
    }

    fn flush(&mut self, now: SimTime) {
        let d = (now - self.since).as_nanos();
        if d > 0 {
            self.times.0[self.current.index()] += d;
            if let Some(iv) = self.intervals.as_mut() {
                match iv.last_mut() {
                    Some(last) if last.category == self.current && last.end == self.since => {
                        last.end = now
                    }
                    _ => iv.push(Interval {
                        start: self.since,
                        end: now,
                        category: self.current,
                    }),
                }
            }
        }
        self.since = now;
    }

    /// Ends the account at the end of the run: the span in progress counts up to `end`.
    pub fn close(&mut self, end: SimTime) {
        self.flush(end);
    }

    /// Nanoseconds spent in each category so far (up to the last switch, or to `close`).
    pub fn times(&self) -> &CategoryTimes {
        &self.times
    }

    /// The spans recorded so far, in time order, adjacent spans of one category merged; empty if the
    /// account was created without recording.
    pub fn intervals(&self) -> &[Interval] {
        self.intervals.as_deref().unwrap_or(&[])
    }

    /// Takes the recorded spans out of the account, leaving none (empty if not recording).
    pub fn take_intervals(&mut self) -> Vec<Interval> {
        self.intervals.take().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_processor_starts_idle_at_zero() {
        let mut a = TimeAccount::new(false);
        assert_eq!(a.current(), Category::IdleSync);
        a.close(SimTime(40));
        assert_eq!(a.times().get(Category::IdleSync), 40);
        assert_eq!(a.times().total(), 40);
    }

    #[test]
    fn each_category_gets_the_spans_spent_in_it_and_all_add_up_to_the_end() {
        let mut a = TimeAccount::new(true);
        // (switch time, category): idle 0..5, search 5..12, message 12..15, search 15..30,
        // interrupt 30..31, wait_reply 31..50, idle_sync 50..64, search 64..end (100).
        let script = [
            (5, Category::Search),
            (12, Category::Message),
            (15, Category::Search),
            (30, Category::Interrupt),
            (31, Category::WaitReply),
            (50, Category::IdleSync),
            (64, Category::Search),
        ];
        for (t, c) in script {
            a.switch(SimTime(t), c);
            assert_eq!(a.current(), c);
        }
        a.close(SimTime(100));
        let t = a.times();
        assert_eq!(t.get(Category::Search), 7 + 15 + 36);
        assert_eq!(t.get(Category::Message), 3);
        assert_eq!(t.get(Category::Interrupt), 1);
        assert_eq!(t.get(Category::WaitReply), 19);
        assert_eq!(t.get(Category::IdleSync), 5 + 14);
        assert_eq!(t.total(), 100, "the categories add up to the end time");
        assert_eq!(
            Category::ALL.iter().map(|&c| t.get(c)).sum::<u64>(),
            t.total()
        );
        // One interval per span, in time order, covering 0..100 without gap.
        let iv = a.intervals();
        assert_eq!(iv.len(), 8);
        assert_eq!(iv[0].start, SimTime::ZERO);
        assert_eq!(iv.last().unwrap().end, SimTime(100));
        assert!(iv.windows(2).all(|w| w[0].end == w[1].start));
        for c in Category::ALL {
            let sum: u64 = iv
                .iter()
                .filter(|i| i.category == c)
                .map(|i| (i.end - i.start).as_nanos())
                .sum();
            assert_eq!(sum, t.get(c), "{}", c.name());
        }
    }

    #[test]
    fn switching_to_the_same_category_or_at_the_same_time_changes_nothing() {
        let mut a = TimeAccount::new(true);
        a.switch(SimTime(10), Category::Search);
        a.switch(SimTime(20), Category::Search); // still searching: one span 10..30
        a.switch(SimTime(30), Category::Message);
        a.switch(SimTime(30), Category::Interrupt); // a zero-length message span
        a.switch(SimTime(30), Category::Search);
        a.close(SimTime(35));
        assert_eq!(a.times().get(Category::Search), 25);
        assert_eq!(a.times().get(Category::Message), 0);
        assert_eq!(a.times().get(Category::Interrupt), 0);
        let spans: Vec<_> = a
            .intervals()
            .iter()
            .map(|i| (i.start.as_nanos(), i.end.as_nanos(), i.category))
            .collect();
        // Zero-length spans leave no interval; adjacent search spans merge.
        assert_eq!(
            spans,
            [(0, 10, Category::IdleSync), (10, 35, Category::Search)]
        );
    }

    #[test]
    fn without_recording_there_are_no_intervals_but_the_same_totals() {
        let play = |record: bool| {
            let mut a = TimeAccount::new(record);
            a.switch(SimTime(3), Category::WaitReply);
            a.switch(SimTime(9), Category::Search);
            a.close(SimTime(12));
            a
        };
        let (mut on, mut off) = (play(true), play(false));
        assert_eq!(on.times(), off.times());
        assert_eq!(on.take_intervals().len(), 3);
        assert!(on.intervals().is_empty(), "taken out");
        assert!(off.intervals().is_empty());
        assert!(off.take_intervals().is_empty());
    }

    #[test]
    fn closing_counts_the_span_in_progress_and_can_be_repeated() {
        let mut a = TimeAccount::new(false);
        a.switch(SimTime(4), Category::Search);
        assert_eq!(
            a.times().get(Category::Search),
            0,
            "not counted before a switch or close"
        );
        a.close(SimTime(10));
        a.close(SimTime(10));
        assert_eq!(a.times().get(Category::Search), 6);
        assert_eq!(a.times().total(), 10);
    }

    #[test]
    #[should_panic(expected = "accounting went back in time")]
    fn accounting_never_goes_back() {
        let mut a = TimeAccount::new(false);
        a.switch(SimTime(10), Category::Search);
        a.switch(SimTime(9), Category::Message);
    }

    #[test]
    fn category_times_add_category_by_category() {
        let mut x = CategoryTimes([1, 2, 3, 4, 5, 6]);
        x.add(&CategoryTimes([10, 20, 30, 40, 50, 60]));
        assert_eq!(x, CategoryTimes([11, 22, 33, 44, 55, 66]));
        assert_eq!(x.total(), 231);
        assert_eq!(x.get(Category::WaitReply), 44);
    }

    #[test]
    fn categories_are_numbered_and_named_in_results_order() {
        let names: Vec<_> = Category::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(
            names,
            [
                "search",
                "message",
                "interrupt",
                "wait_reply",
                "idle_sync",
                "memory"
            ]
        );
        for (i, c) in Category::ALL.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
    }
}
