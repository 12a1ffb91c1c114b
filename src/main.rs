use clap::Parser;

fn main() -> miette::Result<()> {
    qili::cli::run(qili::cli::Cli::parse())
}
