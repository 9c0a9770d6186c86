//! Crash reports: what the `clc` command says when the process itself
//! fails, behind the driver's panic catching (`driver::guarded`).
//!
//! Two kinds of failure never reach a `Result` or a panic: LLVM's
//! `report_fatal_error` (an instruction it cannot select, say), which
//! ends the process with `exit(1)` or `abort()`, and a crash signal
//! (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) from a bug in LLVM or in
//! unsafe code. [`install`] turns both into an internal-compiler-error
//! report naming what clc was doing, and exit status 3, as rustc does:
//!
//! ```text
//! clc: internal compiler error: LLVM ERROR: Cannot select: … (while generating code for 'k.cl': kernel 'k')
//! clc: this is a bug in clc; please report it with the input that caused it
//! ```
//!
//! Only the `clc` command installs them: a program that embeds the
//! library owns its process and its signals. What clc is doing comes from
//! [`set`] (the driver: the stage and the input file) and [`working_on`]
//! (a code generation job, on its own thread). A kernel that crashes under
//! `clc run` is the program's fault, not clc's: during [`Stage::Running`]
//! the report is an error with status 1.
//!
//! A signal handler may not allocate or take locks, so the context lives
//! in fixed buffers of atomic bytes and the report is put together in a
//! buffer on the (alternate) signal stack and written with one `write`.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::Once;

/// The exit status of a report in a compile stage, and of a kernel's
/// crash under `clc run` (an error in the program).
const STATUS_INTERNAL: c_int = crate::driver::EXIT_INTERNAL;
const STATUS_KERNEL: c_int = crate::driver::EXIT_ERRORS;

/// What the process is doing, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Stage {
    /// No stage to name (no context in the report).
    Idle = 0,
    /// `clc run` building its program (all the stages, in the library).
    Compiling,
    Preprocessing,
    Parsing,
    Checking,
    GeneratingCode,
    /// `clc run` executing a kernel: a crash is the kernel's.
    Running,
}

impl Stage {
    const ALL: [Stage; 7] = [Stage::Idle, Stage::Compiling, Stage::Preprocessing, Stage::Parsing, Stage::Checking, Stage::GeneratingCode, Stage::Running];

    fn verb(self) -> &'static str {
        match self {
            Stage::Idle => "",
            Stage::Compiling => "compiling",
            Stage::Preprocessing => "preprocessing",
            Stage::Parsing => "parsing",
            Stage::Checking => "checking",
            Stage::GeneratingCode => "generating code for",
            Stage::Running => "running",
        }
    }
}

/// Text that a signal handler can read while another thread writes it:
/// at worst it reads a mix of two texts, never undefined behaviour.
struct Text {
    len: AtomicUsize,
    bytes: [AtomicU8; 200],
}

impl Text {
    const fn new() -> Text {
        Text { len: AtomicUsize::new(0), bytes: [const { AtomicU8::new(0) }; 200] }
    }

    /// Stores `parts` joined, cut at the buffer's size (on a character
    /// boundary).
    fn set(&self, parts: &[&str]) {
        self.len.store(0, Ordering::Release);
        let mut n = 0;
        'parts: for part in parts {
            for c in part.chars() {
                let mut utf8 = [0; 4];
                let c = c.encode_utf8(&mut utf8).as_bytes();
                if n + c.len() > self.bytes.len() {
                    break 'parts;
                }
                for &b in c {
                    self.bytes[n].store(b, Ordering::Relaxed);
                    n += 1;
                }
            }
        }
        self.len.store(n, Ordering::Release);
    }

    fn clear(&self) {
        self.len.store(0, Ordering::Release);
    }

    fn is_empty(&self) -> bool {
        self.len.load(Ordering::Acquire) == 0
    }

    fn read_into(&self, report: &mut Report) {
        let n = self.len.load(Ordering::Acquire).min(self.bytes.len());
        for b in &self.bytes[..n] {
            report.push_byte(b.load(Ordering::Relaxed));
        }
    }
}

/// Whether [`install`] has run: the driver records stages only then.
static INSTALLED: AtomicBool = AtomicBool::new(false);
static STAGE: AtomicU8 = AtomicU8::new(Stage::Idle as u8);
/// The subject of the stage: `'file.cl'`, `kernel 'k' of 'file.cl'`.
static SUBJECT: Text = Text::new();

thread_local! {
    /// The functions this thread's code generation job works on.
    static UNIT: Text = const { Text::new() };
    /// Whether [`working_on`] has a guard alive on this thread (they do
    /// not nest: an inner one would clear the outer's text).
    static WORKING: Cell<bool> = const { Cell::new(false) };
}

/// Are the reports installed in this process (the `clc` command)?
pub fn installed() -> bool {
    INSTALLED.load(Ordering::Acquire)
}

/// Records what the process is doing, where the reports are installed
/// (elsewhere nothing reads it): `stage` on `subject` (a quoted file
/// name, or `kernel 'k' of 'file.cl'` for [`Stage::Running`]).
pub fn set(stage: Stage, subject: &str) {
    if installed() {
        record(stage, subject);
    }
}

fn record(stage: Stage, subject: &str) {
    SUBJECT.set(&[subject]);
    STAGE.store(stage as u8, Ordering::Release);
}

/// What this thread works on until the guard is dropped: `what` (a code
/// generation job's functions) joins the report of a crash on it.
pub fn working_on(what: &str) -> Working {
    let outer = WORKING.with(|w| w.replace(true));
    if !outer {
        UNIT.with(|u| u.set(&[what]));
    }
    Working { outer }
}

/// Clears [`working_on`]'s text when dropped.
pub struct Working {
    outer: bool,
}

impl Drop for Working {
    fn drop(&mut self) {
        if !self.outer {
            UNIT.with(Text::clear);
            WORKING.with(|w| w.set(false));
        }
    }
}

/// A report put together without allocating.
struct Report {
    buf: [u8; 1024],
    len: usize,
}

impl Report {
    fn new() -> Report {
        Report { buf: [0; 1024], len: 0 }
    }

    fn push_byte(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
            self.len += 1;
        }
    }

    fn push(&mut self, s: &[u8]) {
        for &b in s {
            self.push_byte(b);
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// The stage recorded by [`set`].
fn stage() -> Stage {
    let s = STAGE.load(Ordering::Acquire);
    Stage::ALL.into_iter().find(|st| *st as u8 == s).unwrap_or(Stage::Idle)
}

/// The report of `what` went wrong, with the context recorded for this
/// thread, and the status to exit with. `kernel`: the kernel being run is
/// at fault ([`Stage::Running`]), not clc.
#[cfg(test)]
fn report(what: &[u8], kernel: bool) -> (Report, c_int) {
    let mut r = Report::new();
    let status = report_into(&mut r, &[what], kernel);
    (r, status)
}

/// [`report`] written into `r`, `what` given in parts: the signal
/// handlers keep one buffer on the alternate signal stack, which is small
/// (a few KiB beside the signal frame, less with AVX-512's) and must also
/// hold unoptimised frames in debug builds.
fn report_into(r: &mut Report, what: &[&[u8]], kernel: bool) -> c_int {
    let stage = stage();
    let status = if kernel {
        r.push(b"clc run: error: ");
        STATUS_KERNEL
    } else {
        r.push(b"clc: internal compiler error: ");
        STATUS_INTERNAL
    };
    for part in what {
        r.push(part);
    }
    if stage != Stage::Idle {
        r.push(b" (while ");
        r.push(stage.verb().as_bytes());
        r.push(b" ");
        SUBJECT.read_into(r);
        let _ = UNIT.try_with(|u| {
            if !u.is_empty() {
                r.push(b": ");
                u.read_into(r);
            }
        });
        r.push(b")");
    }
    r.push(b"\n");
    if status == STATUS_INTERNAL {
        r.push(crate::driver::BUG_REPORT.as_bytes());
        r.push(b"\n");
    }
    status
}

/// Writes `report` to standard error and ends the process at once:
/// other threads may be inside LLVM, so no exit handlers or destructors.
fn finish(report: &Report, status: c_int) -> ! {
    let mut bytes = report.as_bytes();
    while !bytes.is_empty() {
        // SAFETY: writes from a live buffer of that length.
        let n = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            break;
        }
        bytes = &bytes[n as usize..];
    }
    // SAFETY: `_exit` ends the process; it is async-signal-safe.
    unsafe { libc::_exit(status) }
}

fn signal_description(sig: c_int) -> &'static [u8] {
    match sig {
        libc::SIGSEGV => b"SIGSEGV (an invalid memory access or a stack overflow)",
        libc::SIGBUS => b"SIGBUS (an invalid memory access)",
        libc::SIGILL => b"SIGILL (an illegal instruction)",
        libc::SIGFPE => b"SIGFPE (an arithmetic exception)",
        libc::SIGABRT => b"SIGABRT (an abort)",
        _ => b"a signal",
    }
}

extern "C" fn on_signal(sig: c_int, _info: *mut libc::siginfo_t, _context: *mut c_void) {
    let kernel = stage() == Stage::Running;
    let mut r = Report::new();
    let crashed: &[u8] = if kernel { b"the kernel crashed with " } else { b"crashed with " };
    let status = report_into(&mut r, &[crashed, signal_description(sig)], kernel);
    finish(&r, status)
}

extern "C" fn on_llvm_fatal_error(reason: *const c_char) {
    // SAFETY: LLVM passes a NUL-terminated message.
    let reason = if reason.is_null() { &[][..] } else { unsafe { CStr::from_ptr(reason) }.to_bytes().trim_ascii_end() };
    let mut r = Report::new();
    // Never the kernel's fault: LLVM runs only to build the program.
    let status = report_into(&mut r, &[b"LLVM ERROR: ", reason], false);
    finish(&r, status)
}

unsafe extern "C" {
    fn LLVMInstallFatalErrorHandler(handler: Option<extern "C" fn(*const c_char)>);
}

/// Installs the reports for this process: LLVM's fatal-error handler and
/// handlers for the crash signals (on the alternate stack that Rust gives
/// each thread, so that a stack overflow is reported too). Once per
/// process; for the `clc` command only (see the module documentation).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: both install process-wide handlers; the handlers only
        // read atomics and thread-locals, write(2) and _exit(2).
        unsafe {
            LLVMInstallFatalErrorHandler(Some(on_llvm_fatal_error));
            for sig in [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT] {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as usize;
                // A second crash inside the handler takes the default action.
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESETHAND;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(sig, &action, std::ptr::null_mut());
            }
        }
        INSTALLED.store(true, Ordering::Release);
    });
}

/// What `#pragma clc __debug ACTION` does (the `clc` command only), to
/// test the reports as clang's `#pragma clang __debug crash` tests its own.
pub fn debug_action(action: crate::pp::DebugAction) -> ! {
    match action {
        crate::pp::DebugAction::Crash => {
            // SAFETY: raising a signal; the handler installed above ends
            // the process.
            unsafe {
                libc::raise(libc::SIGSEGV);
            }
            unreachable!("the SIGSEGV handler exits the process")
        }
        crate::pp::DebugAction::LlvmFatalError => {
            unsafe extern "C" {
                #[link_name = "_ZN4llvm18report_fatal_errorEPKcb"]
                fn report_fatal_error(reason: *const c_char, gen_crash_diag: bool) -> !;
            }
            // SAFETY: LLVM's `report_fatal_error(const char *, bool)`; it
            // calls the handler installed above, which exits.
            unsafe { report_fatal_error(c"#pragma clc __debug llvm_fatal_error".as_ptr(), true) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: &Report) -> String {
        String::from_utf8_lossy(r.as_bytes()).into_owned()
    }

    #[test]
    fn reports_name_the_stage_the_file_and_the_job() {
        // One test: the stage and subject are process-wide.
        record(Stage::GeneratingCode, "'k.cl'");
        let (r, status) = std::thread::spawn(|| {
            let _job = working_on("kernel 'k'");
            {
                // An inner guard neither replaces nor clears the outer text.
                let _inner = working_on("kernel 'other'");
            }
            report(b"LLVM ERROR: Cannot select", false)
        })
        .join()
        .unwrap();
        assert_eq!(status, STATUS_INTERNAL);
        assert_eq!(
            text(&r),
            format!("clc: internal compiler error: LLVM ERROR: Cannot select (while generating code for 'k.cl': kernel 'k')\n{}\n", crate::driver::BUG_REPORT)
        );
        // The job's text is gone with its guard (and other threads never saw it).
        let _job = working_on("kernel 'k'");
        drop(_job);
        let (r, _) = report(b"crashed", false);
        assert!(text(&r).starts_with("clc: internal compiler error: crashed (while generating code for 'k.cl')\n"), "{}", text(&r));

        record(Stage::Running, "kernel 'k' of 'k.cl'");
        let (r, status) = report(signal_description(libc::SIGSEGV), true);
        assert_eq!(status, STATUS_KERNEL);
        assert_eq!(text(&r), "clc run: error: SIGSEGV (an invalid memory access or a stack overflow) (while running kernel 'k' of 'k.cl')\n");

        // Long subjects are cut on a character boundary, reports at the buffer's size.
        let long = "é".repeat(150);
        record(Stage::Checking, &long);
        let (r, _) = report(&[b'x'; 2000], false);
        assert_eq!(r.as_bytes().len(), 1024);
        let (r, _) = report(b"x", false);
        let t = text(&r);
        assert!(t.contains(&"é".repeat(100)) && !t.contains(&"é".repeat(101)) && !t.contains('\u{fffd}'), "{t}");
        record(Stage::Idle, "");
    }
}
