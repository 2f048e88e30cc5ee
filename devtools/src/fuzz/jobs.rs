//! `bp fuzz`: run the in-process protocol fuzzer and print what it found.

use super::{Harness, Options, Report};
use browser_pilot_host::{BpError, BpResult};

/// Run `jobs` harnesses side by side (each its own broker and seed) and
/// report them together.
pub async fn run(opts: Options, jobs: usize, json: bool) -> BpResult<()> {
    let jobs = jobs.max(1) as u64;
    // First, before anything can fail: the seed that replays this run.
    eprintln!("{}", seed_line("fuzz", opts.seed, jobs));
    let mut running = Vec::new();
    for i in 0..jobs {
        let share = Options {
            inputs: opts.inputs / jobs + u64::from(i < opts.inputs % jobs),
            time_limit: opts.time_limit,
            seed: opts.seed.wrapping_add(i.wrapping_mul(1_000_003)),
            max_rss_mb: opts.max_rss_mb,
            out: opts.out.clone(),
        };
        // Each harness drives its own single-threaded runtime.
        running.push(tokio::task::spawn_blocking(move || -> BpResult<Report> {
            let harness = Harness::new(&std::env::temp_dir())?;
            Ok(harness.run(&share))
        }));
    }
    let mut report = Report::default();
    for job in running {
        let one = job
            .await
            .map_err(|e| BpError::internal(format!("the fuzz run died: {e}")))??;
        if report.inputs == 0 {
            report = one;
        } else {
            report.merge(one);
        }
    }
    if json {
        println!("{}", report.to_json());
    } else {
        print_human(&report);
    }
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(BpError::internal(format!(
            "{} invariant violation(s) found",
            report.failures.len()
        )))
    }
}

/// The line that names a run's seed and how to run the same inputs again.
pub(crate) fn seed_line(what: &str, seed: u64, jobs: u64) -> String {
    let replay = match what {
        "fuzz --mcp" => format!("bp fuzz --mcp --seed {seed}"),
        _ if jobs > 1 => format!("bp fuzz --seed {seed} --jobs {jobs}"),
        _ => format!("bp fuzz --seed {seed}"),
    };
    format!("{what}: seed {seed} (replay: {replay})")
}

fn print_human(r: &Report) {
    let secs = r.elapsed.as_secs_f64();
    println!(
        "fuzz: {} inputs in {:.1} s ({:.0} inputs/s), {} replies checked",
        r.inputs,
        secs,
        r.inputs as f64 / secs.max(1e-9),
        r.replies
    );
    let codes: Vec<String> = r.codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!("error replies by code: {}", codes.join(", "));
    println!(
        "resident memory: {} MB at start, {} MB peak, {} MB at end",
        r.rss_start_kb / 1024,
        r.rss_peak_kb / 1024,
        r.rss_end_kb / 1024
    );
    println!("failures: {}", r.failures.len());
    for f in &r.failures {
        println!("- {}", f.violation);
        println!(
            "  input (prologue: {}): {:?}",
            f.prologue,
            String::from_utf8_lossy(&f.input)
        );
    }
}
