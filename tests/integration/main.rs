//! One integration-test binary (as ripgrep has): each module drives the real `judge` binary.

mod util;

mod arguments;
mod build_box;
mod cli_basics;
mod contestants;
mod corpus_through_binary;
mod default_testsets;
mod differential;
mod docs;
mod endless_loops;
mod fork_server;
mod generation;
mod hardening;
mod hostile_inputs;
mod jury_box;
mod kubernetes;
mod layering;
mod overnight;
mod package;
mod package_build_run;
mod package_round_trip;
mod package_sources;
mod package_strength;
mod package_stress;
mod packages;
mod python_ports;
mod reports;
mod sandbox;
mod sanitize;
mod shards;
mod slurm;
mod strength;
mod stress;
mod submissions_as_they_come;
mod timelimit;
