//! Never weaker: a fixed, broad population of wrong programs is scored against each kept
//! default test set (`tests/data/<id>/testset.txt`), and the score is kept beside it
//! (`tests/data/<id>/score.txt`). The population, per problem:
//!
//! - `wrong`: every hand-written known-wrong solver (decoy models included);
//! - `model`: every board-access model that is a wrong solver;
//! - `mutant`: every viable mutant of the reference and fast solvers from the mutation runs
//!   (`tests/data/<id>/mutants.txt`, applied to copies of the files by `build.rs`), each run
//!   in a child process (a mutant may loop forever or overflow its stack: that, like a panic
//!   or a wrong answer on a test, kills it);
//! - `probe`: the random-family disagreement probes of `generators::probes`;
//! - `held-out`: every `wrong` and `model` member again, killed when the default test set
//!   planned without it (its row left out of the kill matrix, as `judge-core`'s `held_out`
//!   bench does: a bug nobody modelled) rejects it. A selection change that loses such a kill
//!   fails here, not only in a benchmark someone has to run.
//!
//! The check fails when a member the score records as killed is no longer killed (it names
//! each), when the kept test set is not the one scored (the score records its hash: kept test
//! sets, and so their golden digests, change only together with the score), and when the
//! population changed. `BOARDJUDGE_BLESS=1` rewrites the score after an intended change, but
//! never one that loses a member that is still in the population — unless that loss was
//! decided in review: `tests/data/<id>/given-up-kills.txt` names each kill given up, with
//! why, one `MEMBER  # reason` a line. A line there that does not name a member the score
//! records as killed (or that is killed again) is an error too, so the list says exactly what
//! was given up, and nothing is lost without a line in a diff.
//!
//! `cargo test --release -p generators --test never_weaker`

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use generators::boundary::Boundary;
use generators::probes::{killed, probes};
use solutions::Problem;
use solutions::problem_files::{GIVEN_UP_KILLS, KEPT_TEST_SET, MUTANTS, SCORE, kept_tests};

#[allow(dead_code, clippy::all)]
mod mutants {
    include!(concat!(env!("OUT_DIR"), "/mutants.rs"));
}

/// How long one mutant may take on the whole test set before it counts as killed (a timeout,
/// as in cargo-mutants; the reference takes milliseconds on the whole test set, and a mutant
/// that panics in a debug build may loop for ever once its arithmetic wraps in release: renju
/// has a few, and each costs this long, so it is kept short, still hundreds of times what a
/// mutant that ends needs).
const MUTANT_TIMEOUT: Duration = Duration::from_secs(2);
/// The same for a mutant the mutation run timed out on (an endless loop): it would only wait,
/// and it is killed either way (a timeout counts as caught, as in cargo-mutants).
const HANGING_MUTANT_TIMEOUT: Duration = Duration::from_millis(500);

/// The kept test set: (input, answer text) per test, and the file's text.
fn kept<P: Problem>() -> (Vec<(P::Input, String)>, String) {
    let bundle = KEPT_TEST_SET.read(P::ID);
    let tests = kept_tests(&bundle)
        .into_iter()
        .map(|test| {
            let input = P::parse(test.input.as_bytes())
                .unwrap_or_else(|e| panic!("{}: kept test {}: {e}", P::ID, test.name));
            (input, test.answer)
        })
        .collect();
    (tests, bundle)
}

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Does `solve` give a different answer from the kept one on some test (or panic)?
fn kills<P: Problem>(tests: &[(P::Input, String)], solve: fn(&P::Input) -> P::Answer) -> bool {
    tests.iter().any(|(input, answer)| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            P::write_answer(&solve(input)) != *answer
        }))
        .unwrap_or(true)
    })
}

/// The child's side: runs mutants `from..` of `MUTANTS` on the kept test set, one line each.
fn child<P: Problem>(list: &[mutants::Mutant<P::Input, P::Answer>], from: usize) {
    let (tests, _) = kept::<P>();
    std::panic::set_hook(Box::new(|_| {}));
    for (k, mutant) in list.iter().enumerate().skip(from) {
        let verdict = if kills::<P>(&tests, mutant.solve) {
            "killed"
        } else {
            "survived"
        };
        println!("mutant {k} {verdict}");
    }
}

/// Whether each mutant is killed, from child processes: a child that crashes or hangs on a
/// mutant kills it, and the next child starts after it.
fn mutant_kills(problem: &str, outcomes: &[&str]) -> Vec<bool> {
    let count = outcomes.len();
    let mut result = vec![false; count];
    let mut next = 0;
    while next < count {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "mutant_child",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("BOARDJUDGE_MUTANTS", format!("{problem}:{next}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the test binary runs itself");
        let stdout = child.stdout.take().unwrap();
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        loop {
            let timeout = match outcomes.get(next) {
                Some(&"timeout") => HANGING_MUTANT_TIMEOUT,
                _ => MUTANT_TIMEOUT,
            };
            match receive.recv_timeout(timeout) {
                Ok(line) => {
                    // libtest writes `test mutant_child ... ` in front of the child's first
                    // line (which dropped the verdict of the first mutant each child ran).
                    let Some(rest) = line.find("mutant ").map(|at| &line[at + "mutant ".len()..])
                    else {
                        continue;
                    };
                    let (k, verdict) = rest.split_once(' ').unwrap();
                    let k: usize = k.parse().unwrap();
                    result[k] = verdict == "killed";
                    next = k + 1;
                }
                // The child ended or hangs: mutant `next` crashed it or never finished.
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    if next < count {
                        result[next] = true;
                        next += 1;
                    }
                    break;
                }
            }
        }
    }
    result
}

/// The score: the population and what the kept test set kills, as the lines of `score.txt`.
struct Score {
    testset: String,
    population: BTreeSet<String>,
    killed: BTreeSet<String>,
    stale: Vec<String>,
}

/// Per wrong solver (board-access models included), whether the default test set planned
/// without it — the fixed tests and [`generators::selection::choose_generated_against`] the
/// others — rejects it. Planned on every core: one plan per solver.
fn held_out_kills<P: Boundary>() -> Vec<(&'static str, bool)>
where
    P::Input: Sync,
{
    let all = P::wrong_solvers();
    let (fixed, seen) = generators::selection::fixed_tests::<P>();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut rows = vec![false; all.len()];
    let done: Vec<(usize, bool)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if k >= all.len() {
                            break out;
                        }
                        let others: Vec<_> = all
                            .iter()
                            .enumerate()
                            .filter(|&(j, _)| j != k)
                            .map(|(_, s)| *s)
                            .collect();
                        let differs = |input: &P::Input| {
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                (all[k].solve)(input) != P::reference(input)
                            }))
                            .unwrap_or(true)
                        };
                        let rejected = fixed.iter().any(differs)
                            || generators::selection::choose_generated_against::<P>(
                                &fixed,
                                1,
                                &mut seen.clone(),
                                &others,
                            )
                            .iter()
                            .any(|c| differs(&c.input));
                        out.push((k, rejected));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a planning thread panicked"))
            .collect()
    });
    for (k, rejected) in done {
        rows[k] = rejected;
    }
    all.iter().map(|s| s.name).zip(rows).collect()
}

fn score<P: Boundary>(list: &[mutants::Mutant<P::Input, P::Answer>], stale: &[&str]) -> Score
where
    P::Input: Sync,
{
    let (tests, bundle) = kept::<P>();
    let mut population = BTreeSet::new();
    let mut dead = BTreeSet::new();
    let known: Vec<&str> = P::known_wrong().iter().map(|s| s.name).collect();
    for solver in P::wrong_solvers() {
        let kind = if known.contains(&solver.name) {
            "wrong"
        } else {
            "model"
        };
        let member = format!("{kind} {}", solver.name);
        if kills::<P>(&tests, solver.solve) {
            dead.insert(member.clone());
        }
        population.insert(member);
    }
    let outcomes: Vec<&str> = list.iter().map(|m| m.outcome).collect();
    for (mutant, k) in list.iter().zip(mutant_kills(P::ID, &outcomes)) {
        let member = format!("mutant {}", mutant.name);
        if k {
            dead.insert(member.clone());
        }
        population.insert(member);
    }
    for (name, rejected) in held_out_kills::<P>() {
        let member = format!("held-out {name}");
        if rejected {
            dead.insert(member.clone());
        }
        population.insert(member);
    }
    let inputs: Vec<P::Input> = tests.iter().map(|(i, _)| i.clone()).collect();
    let probes = probes::<P>();
    for (probe, k) in probes.iter().zip(killed::<P>(&probes, &inputs)) {
        let member = format!("probe {}", probe.id);
        if k {
            dead.insert(member.clone());
        }
        population.insert(member);
    }
    Score {
        testset: fnv(&bundle),
        population,
        killed: dead,
        stale: stale.iter().map(|s| s.to_string()).collect(),
    }
}

fn counts(members: &BTreeSet<String>) -> String {
    ["wrong", "model", "held-out", "mutant", "probe"]
        .iter()
        .map(|kind| {
            let n = members
                .iter()
                .filter(|m| m.split(' ').next() == Some(kind))
                .count();
            format!("{kind} {n}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn render<P: Problem>(score: &Score) -> String {
    let mut out = format!(
        "# Never weaker: what the kept default test set (testset.txt) kills of a fixed population\n\
         # (generators/tests/never_weaker.rs; see the README, \"Never weaker\"). A change that loses a\n\
         # killed member fails CI (`held-out X`: the set planned without X rejects it); after an\n\
         # intended change to the test set or the population:\n\
         # BOARDJUDGE_BLESS=1 cargo test --release -p generators --test never_weaker\n\
         testset {}\n\
         population {}\n\
         killed {} of {}: {}\n",
        score.testset,
        counts(&score.population),
        score.killed.len(),
        score.population.len(),
        counts(&score.killed),
    );
    for member in &score.killed {
        out.push_str(&format!("killed {member}\n"));
    }
    for member in score.population.difference(&score.killed) {
        out.push_str(&format!("survives {member}\n"));
    }
    let _ = P::ID;
    out
}

/// The members a score file records as killed, and all it records.
fn recorded(text: &str) -> (BTreeSet<String>, BTreeSet<String>, String) {
    let mut killed = BTreeSet::new();
    let mut all = BTreeSet::new();
    let mut testset = String::new();
    for line in text.lines() {
        if let Some(m) = line.strip_prefix("killed ")
            && !m.chars().next().is_some_and(|c| c.is_ascii_digit())
        {
            killed.insert(m.to_string());
            all.insert(m.to_string());
        } else if let Some(m) = line.strip_prefix("survives ") {
            all.insert(m.to_string());
        } else if let Some(h) = line.strip_prefix("testset ") {
            testset = h.to_string();
        }
    }
    (killed, all, testset)
}

/// The kills given up in review (see the module's doc): each line's member, without its reason.
fn given_up(id: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(GIVEN_UP_KILLS.path(id)).unwrap_or_default();
    text.lines()
        .map(|line| line.split("  #").next().unwrap_or("").trim())
        .filter(|member| !member.is_empty() && !member.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn never_weaker<P: Boundary>(list: &[mutants::Mutant<P::Input, P::Answer>], stale: &[&str])
where
    P::Input: Sync,
{
    // `build.rs` reads a missing list as no mutants: without this the population would
    // silently lose them all.
    assert!(
        MUTANTS.path(P::ID).is_file(),
        "{}: {} is missing ({})",
        P::ID,
        MUTANTS.relative(P::ID).display(),
        MUTANTS.what
    );
    let now = score::<P>(list, stale);
    assert!(
        now.stale.is_empty(),
        "{}: the mutation population is stale (the solver's file changed since it was recorded): \
         record it again with `solutions/mutants.sh --fast --record {}` and bless the score. Stale: {:?}",
        P::ID,
        P::ID,
        now.stale
    );
    let path = SCORE.path(P::ID);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let (was_killed, was_population, was_testset) = recorded(&old);
    let given_up = given_up(P::ID);
    let lost: Vec<&String> = was_killed
        .iter()
        .filter(|m| now.population.contains(*m) && !now.killed.contains(*m))
        .filter(|m| !given_up.contains(*m))
        .collect();
    // A line of the list must stand for a kill really given up: a member killed again, or one
    // the score never had, is a stale line.
    let stale_lines: Vec<&String> = given_up
        .iter()
        .filter(|m| now.killed.contains(*m) || !now.population.contains(*m))
        .collect();
    assert!(
        stale_lines.is_empty(),
        "{}: {} names kills that are not given up (killed now, or no such member): {stale_lines:?}",
        P::ID,
        GIVEN_UP_KILLS.relative(P::ID).display()
    );
    assert!(
        lost.is_empty(),
        "{}: the kept default test set no longer kills {} of the population it killed (kill count {} -> {}):\n  {}",
        P::ID,
        lost.len(),
        was_killed.len(),
        now.killed.len(),
        lost.iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    let fresh = render::<P>(&now);
    if std::env::var_os("BOARDJUDGE_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let gone: Vec<&String> = was_population.difference(&now.population).collect();
    let new: Vec<&String> = now.population.difference(&was_population).collect();
    // The score is recorded in release builds; a debug build's overflow checks make some
    // mutants panic (killed) that wrap around in release, so it may kill more, never less.
    let gained: Vec<&String> = if cfg!(debug_assertions) {
        Vec::new()
    } else {
        now.killed.difference(&was_killed).collect()
    };
    assert!(
        was_testset == now.testset && gone.is_empty() && new.is_empty() && gained.is_empty(),
        "{}: {} does not score the kept test set as it is (test set scored {}, now {}; \
         population gone {gone:?}, new {new:?}; newly killed {gained:?}): kept test sets change only \
         together with their score: rerun with BOARDJUDGE_BLESS=1",
        P::ID,
        SCORE.relative(P::ID).display(),
        was_testset,
        now.testset,
    );
}

macro_rules! every_problem {
    ([] $($module:ident: $problem:ty,)*) => {
        $(
            #[test]
            fn $module() {
                never_weaker::<$problem>(mutants::$module::MUTANTS, mutants::$module::STALE);
            }
        )*

        /// The child process of [`mutant_kills`]: does nothing unless asked.
        #[test]
        fn mutant_child() {
            let Ok(job) = std::env::var("BOARDJUDGE_MUTANTS") else {
                return;
            };
            let (problem, from) = job.split_once(':').unwrap();
            let from: usize = from.parse().unwrap();
            $(
                if problem == <$problem as Problem>::ID {
                    child::<$problem>(mutants::$module::MUTANTS, from);
                }
            )*
        }
    };
}

solutions::for_each_problem!(every_problem);
