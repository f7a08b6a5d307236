use clap::Parser;

use boardjudge::cli::{Cli, run};
use boardjudge::exit;

fn main() {
    // Named PROBLEM--SOLVER, this executable is that solver (see `judge solutions`).
    if let Some(code) = boardjudge::solution_programs::dispatch_by_name() {
        std::process::exit(code);
    }
    // clap exits with 2 on a usage error and 0 for --help, as the exit-code contract says.
    let cli = Cli::parse();
    let code = match run(&cli) {
        Ok(outcome) => outcome.exit_code(),
        Err(error) => {
            eprintln!("judge: error: {error}");
            exit::FAILURE
        }
    };
    std::process::exit(code);
}
