//! `podlens migrate`: brings the application store up to date — creates it, applies
//! its migrations and imports a legacy `app.duckdb` of the data directory — and says
//! what it did. `podlens serve` and `podlens keys` do the same on open; this runs it
//! on its own (before starting new nodes, or to see the outcome).

use anyhow::Context;

use crate::config::Config;

pub fn run(config: &Config) -> anyhow::Result<()> {
    let data_dir = config.data_dir();
    let location = config.store_location();
    let database =
        podlens_store::Database::open(&location).context("cannot open the application store")?;
    let imported = podlens_store::import_legacy(&data_dir, &database)
        .context("cannot import the legacy app database")?;
    let version = podlens_store::MIGRATOR
        .iter()
        .map(|migration| migration.version)
        .max()
        .unwrap_or_default();
    println!(
        "application store {} is at migration {version}",
        database.describe()
    );
    match imported {
        Some(imported) => {
            let rows: u64 = imported.rows.iter().map(|(_, rows)| rows).sum();
            println!(
                "imported {rows} rows of {} tables from app.duckdb (kept as {})",
                imported.rows.len(),
                imported.moved_to.display()
            );
        }
        None => println!("no legacy app.duckdb to import in {}", data_dir.display()),
    }
    Ok(())
}
