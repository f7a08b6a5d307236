//! Print what `package-format` reads from a package folder: `cargo run -p package-format
//! --example read_package -- DIR`.

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: read_package DIR");
        std::process::exit(2);
    };
    match package_format::Package::read(&dir) {
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
        Ok(p) => {
            let m = &p.metadata;
            println!("{} ({}) type {:?}", m.name, m.version, m.problem_type);
            println!("limits {:?}", m.limits);
            for t in p.tests() {
                println!(
                    "test {} group={} ans={} args={:?} in={:?} out={:?}",
                    t.name,
                    t.group,
                    t.answer.is_some(),
                    t.args,
                    t.input_validator_args,
                    t.output_validator_args
                );
            }
            for t in &p.test_data.validation_cases {
                println!("validation {} {:?}", t.name, t.category);
            }
            for g in &p.test_data.groups {
                println!(
                    "group {} {:?}",
                    g.name,
                    g.config.values.keys().collect::<Vec<_>>()
                );
            }
            for v in &p.input_validators {
                println!("input validator {} {:?}", v.name, v.kind);
            }
            for v in &p.answer_validators {
                println!("answer validator {} {:?}", v.name, v.kind);
            }
            match &p.output_validator {
                Some(v) => println!("output validator {} {:?}", v.name, v.kind),
                None => println!("default output validator"),
            }
            for s in &p.submissions {
                println!(
                    "submission {} lang={:?} expects {} rules={}",
                    s.name,
                    s.effective_language().map(|l| l.code),
                    s.expectation.expected_final_verdicts(),
                    s.expectation.rules.len()
                );
            }
            for w in &p.warnings {
                println!("warning: {w}");
            }
        }
    }
}
