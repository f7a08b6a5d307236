//! `judge`: argument parsing and output; the work is done by the `engine` crate.

mod cli;
mod commands;

use clap::Parser;
use engine::exit;

fn main() {
    // Named PROBLEM--SOLVER, this executable is that solver (see `judge solutions`).
    if let Some(code) = engine::solution_programs::dispatch_by_name() {
        std::process::exit(code);
    }
    // clap exits with 2 on a usage error and 0 for --help, as the exit-code contract says.
    let cli = cli::Cli::parse();
    let code = match cli::run(&cli) {
        Ok(engine::Outcome::Success) => exit::SUCCESS,
        Ok(engine::Outcome::Finding) => exit::FINDING,
        Err(error) => {
            eprintln!("judge: error: {error}");
            exit::FAILURE
        }
    };
    std::process::exit(code);
}
