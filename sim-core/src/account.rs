//! Per-processor time accounting: every nanosecond of every processor in exactly one category.

use crate::SimTime;
use serde::{Deserialize, Serialize};

/// What a processor is doing (DESIGN.md, "Time accounting").
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
}

impl Category {
    /// Every category, in [`Category::index`] order (the order of results columns and of [`CategoryTimes`]).
    pub const ALL: [Category; 5] = [
        Category::Search,
        Category::Message,
        Category::Interrupt,
        Category::WaitReply,
        Category::IdleSync,
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
pub struct CategoryTimes(pub [u64; 5]);

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
