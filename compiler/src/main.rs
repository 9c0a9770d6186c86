//! The `clc` command. All the work is in [`clc::driver`]; this only maps its
//! result to the process exit status.

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    std::process::exit(clc::driver::main(args));
}
