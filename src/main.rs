use backoffice::app::cli::{
    Cli, Command, LogFormat, backup_command, create_user_command, generate_orders_command, rotate_key_command, serve,
    supplier_sim_command,
};
use clap::Parser;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's allocator: requests allocate on one thread and free on
/// another (rows from SQLite's connection threads, bodies through hyper), where glibc's arenas
/// contend and consolidate (the lists and the open API measured both ways in
/// `bench/README.md`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    no_huge_pages();
    let cli = Cli::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match cli.log_format {
        LogFormat::Text => subscriber.init(),
        LogFormat::Json => subscriber.json().init(),
    }
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Command::Serve(args) = &cli.command {
        let chosen = args.worker_threads.map(usize::from);
        runtime.worker_threads(backoffice::platform::runtime::serve_workers(
            chosen,
            &args.database.database_url,
            backoffice::platform::runtime::cores(),
        ));
    }
    runtime.enable_all().build()?.block_on(run(cli.command))
}

/// No transparent huge pages for this process. mimalloc asks for them on its arenas
/// (`MADV_HUGEPAGE`), and the kernel then zeroes 2 MiB at the first touch of a region where
/// a 4 KiB page would do, and again after mimalloc hands memory back. In a batch submit that
/// zeroing took a good part of the server's time, and an export's peak memory grew with it
/// (bench/README.md). Lists and orders alike either way. The flag holds for
/// every mapping of the process, those made before it included.
fn no_huge_pages() {
    // Nothing is lost if the kernel refuses: the pages are then as they were.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}

async fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Serve(args) => serve(*args).await,
        Command::CreateUser(args) => create_user_command(args).await,
        Command::GenerateOrders(args) => generate_orders_command(args).await,
        Command::Backup(args) => backup_command(args).await,
        Command::RotateKey(args) => rotate_key_command(args).await,
        Command::SupplierSim(args) => supplier_sim_command(args).await,
        Command::Openapi => {
            println!("{}", backoffice::app::api_docs::document_json());
            Ok(())
        }
    }
}
