fn main() -> std::process::ExitCode {
    nvcmp::cli::main()
}
