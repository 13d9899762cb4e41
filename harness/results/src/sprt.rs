//! `quads sprt` and `quads ladder`: sequential tests that one bot is stronger than another.
//!
//! Game pairs (two games from one random opening, seats swapped) are played through the
//! tournament runner, concurrently; after each complete pair the pentanomial LLR is updated,
//! and the run is stopped as soon as it crosses a bound.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use quads_record::files::JOURNAL;
use quads_referee::{defaults, BotSpec};
use quads_reports::sprt::{Decision, Pentanomial, Sprt};
use quads_rules::Rules;
use quads_tournament::{run, schedule, Format, Openings, RunError, Tournament};
use tokio::sync::watch;

use crate::folder::create;
use crate::signals::watch_stops;
use crate::tournament::runtime;
use crate::{Event, ResultsError, Sink};

/// How a test ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Tested {
    /// It decided, or reached its pair limit undecided.
    Decided {
        /// H1, H0, or `Continue` at the pair limit.
        decision: Decision,
        /// The verdict and the test's state, in one line.
        verdict: String,
    },
    /// A signal stopped it first.
    Interrupted,
}

/// The test's state in one line: pairs and their pentanomial counts, LLR and bounds, Elo.
fn summary(test: &Sprt, pairs: &Pentanomial, llr: f64) -> String {
    let (lo, hi) = test.bounds();
    let (e, elo_lo, elo_hi) = pairs.elo();
    let c = pairs.0;
    format!(
        "pairs {} [{} {} {} {} {}]  LLR {llr:+.2} [{lo:.2}, {hi:.2}]  Elo {e:+.1} [{elo_lo:+.1}, {elo_hi:+.1}]",
        pairs.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    )
}

/// Runs one SPRT of `t.bots[0]` against `t.bots[1]` (`t.pairs` is the pair limit), telling
/// `sink` of each pair.
pub fn run_sprt(t: &Tournament, test: Sprt, sink: &mut dyn Sink) -> Result<Tested, ResultsError> {
    create(&t.out)?;
    let journal = t.out.join(JOURNAL);
    match std::fs::remove_file(&journal) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
            return Err(ResultsError::Reset {
                path: journal,
                source,
            })
        }
        _ => {}
    }
    let games = schedule(t);
    let under_test = t.bots[0].name.clone();
    let runtime = runtime(t.concurrency)?;
    let (cancel_tx, cancel_rx) = watch::channel(false);
    let mut halves: HashMap<u32, f64> = HashMap::new();
    let mut pairs = Pentanomial::default();
    let mut decision = Decision::Continue;
    let mut llr = 0.0;
    let signalled = std::cell::Cell::new(false);
    let sink = RefCell::new(sink);
    let result = runtime.block_on(async {
        let stops = watch_stops(&cancel_tx, |_| signalled.set(true));
        let games = run(t, &games, &journal, cancel_rx, |r, _| {
            if decision != Decision::Continue {
                return;
            }
            let first = r.result.score_of_first();
            let points = if r.first.name == under_test {
                first
            } else {
                1.0 - first
            };
            let pair = r.pair.unwrap_or(r.game.div_ceil(2));
            if let Some(other) = halves.remove(&pair) {
                pairs.add(other + points);
                llr = test.llr(&pairs);
                decision = test.decide(&pairs);
                sink.borrow_mut()
                    .event(Event::Pair(&summary(&test, &pairs, llr)));
                if decision != Decision::Continue {
                    let _ = cancel_tx.send(true);
                }
            } else {
                halves.insert(pair, points);
            }
        });
        tokio::select! {
            result = games => result,
            () = stops => unreachable!("watch_stops never returns"),
        }
    });
    match result {
        Ok(()) => {}
        Err(RunError::Interrupted { .. }) if decision != Decision::Continue => {}
        Err(RunError::Interrupted { .. }) => return Ok(Tested::Interrupted),
        Err(e) => return Err(e.into()),
    }
    if signalled.get() && decision == Decision::Continue {
        return Ok(Tested::Interrupted);
    }
    let verdict = match decision {
        Decision::H1 => format!(
            "H1 accepted: {} is stronger than {} by about {} Elo or more",
            t.bots[0].name, t.bots[1].name, test.elo1
        ),
        Decision::H0 => format!(
            "H0 accepted: {} is not stronger than {} by {} Elo",
            t.bots[0].name, t.bots[1].name, test.elo1
        ),
        Decision::Continue => format!("undecided after {} pairs (the limit)", pairs.pairs()),
    };
    Ok(Tested::Decided {
        decision,
        verdict: format!("{verdict}; {}", summary(&test, &pairs, llr)),
    })
}

/// A two-bot match for an SPRT: its bots, rules, time and where it goes.
#[derive(Clone, Debug)]
pub struct Duel {
    /// The bot under test.
    pub candidate: BotSpec,
    /// The bot it must beat.
    pub baseline: BotSpec,
    /// The rules.
    pub rules: Rules,
    /// The time control.
    pub time: quads_protocol::TimeControl,
    /// The pair limit.
    pub pairs: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Seeds the openings and the games.
    pub seed: u64,
    /// Random moves before the bots take over, per pair.
    pub opening_moves: u32,
    /// The folder for the journal.
    pub out: PathBuf,
}

impl Duel {
    /// The tournament of its two bots.
    pub fn tournament(self) -> Tournament {
        Tournament {
            name: format!("{} vs {}", self.candidate.name, self.baseline.name),
            seed: self.seed,
            out: self.out,
            concurrency: self.concurrency,
            format: Format::RoundRobin,
            pairs: self.pairs,
            variants: vec![self.rules],
            keep_alive: true,
            ponder: true,
            openings: Openings::Random(self.opening_moves),
            bots: vec![self.candidate, self.baseline],
            time: self.time,
            margin: defaults::MARGIN,
            handshake_timeout: defaults::HANDSHAKE,
            log_cap: defaults::LOG_CAP,
            anchor: None,
            sprt: None,
            entrants: None,
            entrants_ponder: false,
            entrants_build_timeout: quads_tournament::entrants::BUILD_TIMEOUT,
            sandbox: quads_referee::sandbox::SandboxSpec::default(),
            analyze: false,
        }
    }
}

/// A rung of a ladder, as it is tested.
#[derive(Debug)]
pub struct Rung<'a> {
    /// From 2: the second bot of the config is rung 2.
    pub number: usize,
    /// The bot that must be stronger.
    pub upper: &'a str,
    /// The bot below it.
    pub lower: &'a str,
}

/// How a ladder ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Climbed {
    /// Every bot is stronger than the one below it.
    Holds,
    /// Rung `rung` did not hold: `decision` is H0 or `Continue` (undecided).
    Broken {
        /// The rung, from 2.
        rung: usize,
        /// The bot that was not shown stronger.
        upper: String,
        /// The bot below it.
        lower: String,
        /// H0 or undecided.
        decision: Decision,
    },
    /// A signal stopped it.
    Interrupted,
}

/// Tests each bot of ladder config `t` (read from `config`) against the one below it, in
/// order, stopping at the first that does not hold. `rung` is told of each test's end.
pub fn ladder(
    config: &Path,
    t: &Tournament,
    sink: &mut dyn Sink,
    mut rung: impl FnMut(&Rung<'_>, &Tested),
) -> Result<Climbed, ResultsError> {
    let s = t.sprt.as_ref().ok_or_else(|| ResultsError::Ladder {
        config: config.to_owned(),
        why: "a ladder config needs an [sprt] section (elo0, elo1)",
    })?;
    if t.entrants.is_some() {
        return Err(ResultsError::Ladder {
            config: config.to_owned(),
            why: "a ladder takes its rungs from [[bot]] tables, not from `entrants`",
        });
    }
    let test = Sprt {
        elo0: s.elo0,
        elo1: s.elo1,
        alpha: s.alpha,
        beta: s.beta,
    };
    let opening_moves = match t.openings {
        Openings::Random(n) => n,
        Openings::Listed(_) => return Err(ResultsError::LadderOpenings),
    };
    for number in 2..=t.bots.len() {
        let (upper, lower) = (&t.bots[number - 1], &t.bots[number - 2]);
        let duel = Duel {
            candidate: upper.clone(),
            baseline: lower.clone(),
            rules: t.variants[0],
            time: t.time,
            pairs: s.max_pairs,
            concurrency: t.concurrency,
            seed: t.seed,
            opening_moves,
            out: t.out.join(format!("rung-{number}")),
        }
        .tournament();
        sink.event(Event::Rung {
            number,
            upper: &upper.name,
            lower: &lower.name,
        });
        let tested = run_sprt(&duel, test, sink)?;
        rung(
            &Rung {
                number,
                upper: &upper.name,
                lower: &lower.name,
            },
            &tested,
        );
        match tested {
            Tested::Interrupted => return Ok(Climbed::Interrupted),
            Tested::Decided {
                decision: Decision::H1,
                ..
            } => {}
            Tested::Decided { decision, .. } => {
                return Ok(Climbed::Broken {
                    rung: number,
                    upper: upper.name.clone(),
                    lower: lower.name.clone(),
                    decision,
                })
            }
        }
    }
    Ok(Climbed::Holds)
}
