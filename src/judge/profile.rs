//! Where a ruling's time goes, by the rulebook's own names: each nature,
//! clause, definition and primitive with its calls and its self time (the
//! time spent in it, less the time of the steps it called). A committee
//! drafting a new definition sees what it costs over the corpus
//! (`qili test --profile`); the speed work reads the same table.
//!
//! Timing every step costs a clock reading on each side of it, so the
//! evaluator keeps no profiler unless one is asked for
//! ([`super::Options::profile`]); the rulings are the same either way.

use std::sync::OnceLock;
use std::time::Instant;

use serde::Serialize;

use super::program::{Prim, Program};

/// Calls and self time of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    calls: u64,
    self_ns: u64,
}

/// What is being timed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Timed {
    Nature(usize),
    Clause(usize),
    Definition(usize),
    Primitive(Prim),
    Judge(JudgeStep),
}

/// The judge's own work around the rulebook's steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JudgeStep {
    /// Each move's positions and contexts (before, after, the previous move).
    MoveSetup,
    /// The pieces the deciding nature names, followed through the cycle.
    Witnesses,
    /// The verdict's cases over the cycle.
    Verdict,
}

impl JudgeStep {
    const ALL: [JudgeStep; 3] = [
        JudgeStep::MoveSetup,
        JudgeStep::Witnesses,
        JudgeStep::Verdict,
    ];

    fn slot(self) -> usize {
        self as usize
    }

    fn id(self) -> &'static str {
        match self {
            JudgeStep::MoveSetup => "move setup",
            JudgeStep::Witnesses => "witnesses",
            JudgeStep::Verdict => "verdict",
        }
    }

    fn zh(self) -> &'static str {
        match self {
            JudgeStep::MoveSetup => "每着的局面准备",
            JudgeStep::Witnesses => "被捉之子的追踪",
            JudgeStep::Verdict => "判决",
        }
    }
}

/// The start of a timed step, and the time already counted for the steps
/// beneath the one it is nested in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    start: Instant,
    outer_children: u64,
}

/// The running tallies of one evaluator.
#[derive(Clone, Debug)]
pub(crate) struct Profiler {
    natures: Vec<Tally>,
    clauses: Vec<Tally>,
    definitions: Vec<Tally>,
    primitives: Vec<Tally>,
    judge: Vec<Tally>,
    /// Time taken so far by the steps under the one being timed.
    children: u64,
}

impl Profiler {
    pub(crate) fn new(prog: &Program) -> Profiler {
        Profiler {
            natures: vec![Tally::default(); prog.natures.len()],
            clauses: vec![Tally::default(); prog.clauses.len()],
            definitions: vec![Tally::default(); prog.defs.len()],
            primitives: vec![Tally::default(); Prim::COUNT],
            judge: vec![Tally::default(); JudgeStep::ALL.len()],
            children: 0,
        }
    }

    pub(crate) fn enter(&mut self) -> Mark {
        Mark {
            start: Instant::now(),
            outer_children: std::mem::take(&mut self.children),
        }
    }

    pub(crate) fn leave(&mut self, mark: Mark, what: Timed) {
        self.record(mark, what, clock_cost());
    }

    /// Ends the step begun at `mark`; `clock` is what timing it cost, not
    /// its own time.
    fn record(&mut self, mark: Mark, what: Timed, clock: u64) {
        let elapsed = u64::try_from(mark.start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let own = elapsed.saturating_sub(self.children).saturating_sub(clock);
        self.children = mark.outer_children.saturating_add(elapsed);
        let (table, i) = match what {
            Timed::Nature(n) => (&mut self.natures, n),
            Timed::Clause(c) => (&mut self.clauses, c),
            Timed::Definition(d) => (&mut self.definitions, d),
            Timed::Primitive(p) => (&mut self.primitives, p.slot()),
            Timed::Judge(j) => (&mut self.judge, j.slot()),
        };
        if let Some(t) = table.get_mut(i) {
            t.calls += 1;
            t.self_ns = t.self_ns.saturating_add(own);
        }
    }

    /// What timing the steps cost so far (taken off their own times): to
    /// be taken off the ruling's whole time too.
    pub(crate) fn clock_ns(&self) -> u64 {
        let calls: u64 = [
            &self.natures,
            &self.clauses,
            &self.definitions,
            &self.primitives,
            &self.judge,
        ]
        .iter()
        .flat_map(|t| t.iter())
        .map(|t| t.calls)
        .sum();
        calls.saturating_mul(clock_cost())
    }

    /// The tallies by name, the steps never called left out.
    pub(crate) fn rows(&self, prog: &Program) -> Vec<ProfileRow> {
        let mut rows = Vec::new();
        let mut add = |kind: StepKind, id: &str, name: &str, t: &Tally| {
            if t.calls > 0 {
                rows.push(ProfileRow {
                    kind,
                    id: id.to_string(),
                    name: name.to_string(),
                    calls: t.calls,
                    self_ns: t.self_ns,
                });
            }
        };
        for (code, t) in prog.natures.iter().zip(&self.natures) {
            add(StepKind::Nature, &code.label.id, code.label.name(false), t);
        }
        for (code, t) in prog.clauses.iter().zip(&self.clauses) {
            add(StepKind::Clause, &code.label.id, code.label.name(true), t);
        }
        for (code, t) in prog.defs.iter().zip(&self.definitions) {
            add(
                StepKind::Definition,
                &code.label.id,
                code.label.name(true),
                t,
            );
        }
        for (slot, t) in self.primitives.iter().enumerate() {
            if let Some(p) = Prim::at(slot) {
                add(StepKind::Primitive, p.name(), p.name(), t);
            }
        }
        for (j, t) in JudgeStep::ALL.iter().zip(&self.judge) {
            add(StepKind::Judge, j.id(), j.zh(), t);
        }
        rows
    }
}

/// Measures what timing a step costs, once per process: to be called
/// before a ruling's clock starts, so that neither the first step timed
/// nor the ruling's total holds the measurement.
pub(crate) fn calibrate() {
    clock_cost();
}

/// What timing one step costs, in nanoseconds: two clock readings and the
/// bookkeeping, measured once per process. It is taken off each step's own
/// time, so that a cheap step called a million times does not show as the
/// clock's time.
fn clock_cost() -> u64 {
    static COST: OnceLock<u64> = OnceLock::new();
    *COST.get_or_init(|| {
        const ROUNDS: u32 = 1_000;
        let mut p = Profiler {
            natures: vec![Tally::default()],
            clauses: Vec::new(),
            definitions: Vec::new(),
            primitives: Vec::new(),
            judge: Vec::new(),
            children: 0,
        };
        // The fastest of a few runs: the machine's noise only adds.
        (0..5)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..ROUNDS {
                    let m = p.enter();
                    p.record(m, Timed::Nature(0), 0);
                }
                u64::try_from(start.elapsed().as_nanos()).unwrap_or(0) / u64::from(ROUNDS)
            })
            .min()
            .unwrap_or(0)
    })
}

/// What kind of step a row is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    Nature,
    Clause,
    Definition,
    Primitive,
    /// The judge's own work around the rules: setting up each move, the
    /// witnesses, the verdict.
    Judge,
}

impl StepKind {
    fn word(self, zh: bool) -> &'static str {
        match (self, zh) {
            (StepKind::Nature, true) => "性质",
            (StepKind::Clause, true) => "条款",
            (StepKind::Definition, true) => "定义",
            (StepKind::Primitive, true) => "原语",
            (StepKind::Judge, true) => "裁判",
            (StepKind::Nature, false) => "nature",
            (StepKind::Clause, false) => "clause",
            (StepKind::Definition, false) => "definition",
            (StepKind::Primitive, false) => "primitive",
            (StepKind::Judge, false) => "judge",
        }
    }
}

/// One step of the rulebook: its calls and self time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProfileRow {
    pub kind: StepKind,
    /// The id in the rules file (a primitive's name for a primitive).
    pub id: String,
    /// Its label: the Chinese one for clauses and definitions, the English
    /// gloss for natures (whose id is Chinese).
    pub name: String,
    pub calls: u64,
    /// Time in the step itself, the steps it called excluded. The searches
    /// a primitive runs are its own time.
    pub self_ns: u64,
}

/// The time of one or more rulings, by step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Rulings counted.
    pub cycles: u64,
    /// Their whole time, the part no step accounts for included (setting
    /// up each move's positions, the summaries, the ruling's own records).
    pub total_ns: u64,
    /// Heaviest first.
    pub rows: Vec<ProfileRow>,
}

impl Profile {
    /// One ruling's profile from the rows of its evaluators; a step that
    /// two of them timed (a definition the classification and the verdict
    /// both call) becomes one row.
    pub(crate) fn of_ruling(total_ns: u64, rows: Vec<ProfileRow>) -> Profile {
        let mut p = Profile {
            cycles: 1,
            total_ns,
            rows: Vec::with_capacity(rows.len()),
        };
        p.add_rows(&rows);
        p
    }

    /// Adds another profile's counts to this one (same steps by kind and id).
    pub fn merge(&mut self, other: &Profile) {
        self.cycles += other.cycles;
        self.total_ns = self.total_ns.saturating_add(other.total_ns);
        self.add_rows(&other.rows);
    }

    fn add_rows(&mut self, rows: &[ProfileRow]) {
        for row in rows {
            match self
                .rows
                .iter_mut()
                .find(|r| r.kind == row.kind && r.id == row.id)
            {
                Some(r) => {
                    r.calls += row.calls;
                    r.self_ns = r.self_ns.saturating_add(row.self_ns);
                }
                None => self.rows.push(row.clone()),
            }
        }
        sort(&mut self.rows);
    }

    /// The time no step accounts for. Besides the judge's small jobs it
    /// holds what the clock readings cost beyond the part measured once and
    /// taken off (their cost in a tight loop is less than among the
    /// judge's own memory traffic): compare a profiled total with an
    /// unprofiled timing to see how much.
    pub fn elsewhere_ns(&self) -> u64 {
        let counted: u64 = self.rows.iter().map(|r| r.self_ns).sum();
        self.total_ns.saturating_sub(counted)
    }

    /// The table `--profile` prints: the `limit` heaviest steps, then what
    /// the rest and the unaccounted time add up to.
    pub fn to_text(&self, zh: bool, limit: usize) -> String {
        let ms = self.total_ns as f64 / 1e6;
        let mut out = match (zh, self.cycles) {
            (true, n) => format!("耗时分布（自身耗时）：{n} 个循环，共 {ms:.2} 毫秒\n"),
            (false, 1) => format!("Where the time went (self time): 1 cycle, {ms:.2} ms\n"),
            (false, n) => {
                format!("Where the time went (self time): {n} cycles, {ms:.2} ms in all\n")
            }
        };
        let header = if zh {
            "      微秒    占比       次数  步骤\n"
        } else {
            "        µs   share      calls  step\n"
        };
        out.push_str(header);
        let share = |ns: u64| {
            if self.total_ns == 0 {
                0.0
            } else {
                100.0 * ns as f64 / self.total_ns as f64
            }
        };
        for r in self.rows.iter().take(limit) {
            let label = if r.name == r.id {
                r.id.clone()
            } else {
                format!("{} ({})", r.id, r.name)
            };
            out.push_str(&format!(
                "{:>10.1}  {:>5.1}%  {:>9}  {} {label}\n",
                r.self_ns as f64 / 1e3,
                share(r.self_ns),
                r.calls,
                r.kind.word(zh),
            ));
        }
        let rest: Vec<&ProfileRow> = self.rows.iter().skip(limit).collect();
        if !rest.is_empty() {
            let ns: u64 = rest.iter().map(|r| r.self_ns).sum();
            let what = match (zh, rest.len()) {
                (true, n) => format!("其余 {n} 个步骤"),
                (false, 1) => "1 other step".to_string(),
                (false, n) => format!("{n} other steps"),
            };
            out.push_str(&format!(
                "{:>10.1}  {:>5.1}%  {:>9}  {what}\n",
                ns as f64 / 1e3,
                share(ns),
                "",
            ));
        }
        let elsewhere = self.elsewhere_ns();
        let what = if zh {
            "其余（着法名称、小结、记录，及计时本身未扣尽的开销）"
        } else {
            "elsewhere (move names, summaries, records, the timing's own residue)"
        };
        out.push_str(&format!(
            "{:>10.1}  {:>5.1}%  {:>9}  {what}\n",
            elsewhere as f64 / 1e3,
            share(elsewhere),
            "",
        ));
        out
    }
}

/// Heaviest first; equal times by kind and id, so the order is stable.
fn sort(rows: &mut [ProfileRow]) {
    rows.sort_by(|a, b| {
        b.self_ns
            .cmp(&a.self_ns)
            .then(a.kind.cmp(&b.kind))
            .then(a.id.cmp(&b.id))
    });
}

// Tests state their expectations by panicking.
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn row(kind: StepKind, id: &str, calls: u64, self_ns: u64) -> ProfileRow {
        ProfileRow {
            kind,
            id: id.to_string(),
            name: id.to_string(),
            calls,
            self_ns,
        }
    }

    #[test]
    fn merging_adds_the_same_steps_and_keeps_the_heaviest_first() {
        let mut a = Profile::of_ruling(
            1_000,
            vec![
                row(StepKind::Definition, "wins", 2, 300),
                row(StepKind::Nature, "捉", 1, 200),
            ],
        );
        let b = Profile::of_ruling(
            2_000,
            vec![
                row(StepKind::Nature, "捉", 1, 500),
                row(StepKind::Primitive, "attackers", 4, 100),
            ],
        );
        a.merge(&b);
        assert_eq!(a.cycles, 2);
        assert_eq!(a.total_ns, 3_000);
        let ids: Vec<(&str, u64, u64)> = a
            .rows
            .iter()
            .map(|r| (r.id.as_str(), r.calls, r.self_ns))
            .collect();
        assert_eq!(
            ids,
            [("捉", 2, 700), ("wins", 2, 300), ("attackers", 4, 100)]
        );
        assert_eq!(a.elsewhere_ns(), 3_000 - 1_100);
    }

    #[test]
    fn the_table_ends_with_the_rest_and_the_time_outside_the_rules() {
        let p = Profile::of_ruling(
            10_000,
            vec![
                row(StepKind::Definition, "wins", 2, 4_000),
                row(StepKind::Nature, "捉", 1, 3_000),
                row(StepKind::Primitive, "attackers", 4, 1_000),
            ],
        );
        let text = p.to_text(false, 2);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert!(lines[2].contains("40.0%") && lines[2].ends_with("definition wins"));
        assert!(lines[3].ends_with("nature 捉"));
        assert!(lines[4].contains("10.0%") && lines[4].ends_with("1 other step"));
        assert!(lines[5].contains("20.0%") && lines[5].contains("elsewhere (move names"));
        let zh = p.to_text(true, 5);
        assert!(zh.starts_with("耗时分布"), "{zh}");
        assert!(zh.contains("定义 wins"), "{zh}");
    }
}
