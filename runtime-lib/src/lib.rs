//! The CPU runtime for kernels compiled by clc.
//!
//! It launches compiled kernels over an ND-range on all cores and never
//! depends on LLVM or on the compiler crate: a program is a kernel table
//! (`__clc_kernel_table`, see [`abi`]) that the compiler's JIT (or a
//! program linked ahead of time) hands over. Work-groups run in parallel
//! on a work-stealing pool (rayon; `CLC_NUM_THREADS` overrides the thread
//! count); inside a group the compiled work-group entry loops over the
//! work-items.
//!
//! ```ignore
//! let program = clc::jit::build(source, &opts)?;          // compiler side
//! let mut k = program.kernel("vector_add")?;
//! let a = Buffer::from_slice(&[1.0f32, 2.0]);
//! k.set_arg(0, Arg::Buffer(&a))?;
//! k.launch(&NdRange::linear(2))?;
//!
//! let fmt = ImageFormat::new(ChannelOrder::Rgba, ChannelType::UnormInt8);
//! let img = Image::new(ImageType::Image2d, fmt, &[640, 480])?;   // `image` module
//! k.set_arg(1, Arg::Image(&img))?;
//! k.set_arg(2, Arg::Sampler(Sampler::new(true, AddressingMode::Repeat, FilterMode::Linear)))?;
//!
//! let mut pipe = Pipe::new(4, 1024)?;                     // `pipe` module: int packets
//! pipe.push(&[1i32, 2, 3])?;
//! k.set_arg(3, Arg::Pipe(&pipe))?;
//! ```
//!
//! Kernels with barriers and work-group functions run their groups in the
//! compiler's region loops; the few shapes the regions do not express run
//! with a thread per work-item (barriers only) or, with work-group
//! functions, one work-item per group, and say so when asked for more.

pub mod abi;
mod enqueue;
pub mod image;
pub mod pipe;

pub use image::{AddressingMode, ChannelOrder, ChannelType, FilterMode, Image, ImageAccess, ImageFormat, ImageType, Sampler};
pub use pipe::Pipe;

use abi::{Entry, Group, KernelTable};
use rayon::prelude::*;
use std::any::Any;
use std::cell::UnsafeCell;
use std::ffi::{CStr, c_void};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The most work-items a group may have.
pub const MAX_WORK_GROUP_SIZE: usize = 4096;
/// Global ids are below this: a launch's offset plus global size may not
/// exceed it in any dimension (OpenCL requires only that the sum fit in a
/// `size_t`), nor may it have more than [`MAX_GROUPS`] groups in one.
/// Compiled kernels rely on both: an id's parts, `group_id *
/// local_size + local_id + offset`, are each below 2^62, so as signed
/// 64-bit values they are non-negative and their sum never wraps, which
/// the optimiser can then see from the parts' ranges alone.
pub const MAX_GLOBAL_ID: usize = 1 << 62;
/// The most groups a launch may have in one dimension (see
/// [`MAX_GLOBAL_ID`]): with at most [`MAX_WORK_GROUP_SIZE`] work-items
/// each, `group_id * local_size` stays below 2^62.
pub const MAX_GROUPS: usize = 1 << 50;
/// Bytes of `__local` memory a group may use.
pub const LOCAL_MEM_SIZE: usize = 256 << 10;

/// What went wrong, in words a user can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The kernel table is not one this runtime understands.
    BadProgram(String),
    UnknownKernel { name: String, available: Vec<String> },
    /// An argument mistake: which argument and what was expected.
    Arg { kernel: String, index: usize, message: String },
    /// A bad ND-range or local size.
    Range(String),
    /// Something the runtime cannot do yet.
    NotSupported(String),
    /// A bad image format, size or contents.
    Image(String),
    /// A bad pipe size or packet, or a pipe in use.
    Pipe(String),
    /// Children a kernel enqueued that could not run (a wait for an event
    /// that never completes).
    Enqueue(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadProgram(m) => write!(f, "invalid program: {m}"),
            Error::UnknownKernel { name, available } => {
                write!(f, "no kernel named '{name}'")?;
                if available.is_empty() { write!(f, " (the program has no kernels)") } else { write!(f, " (kernels: {})", available.join(", ")) }
            }
            Error::Arg { kernel, index, message } => write!(f, "kernel '{kernel}', argument {index}: {message}"),
            Error::Range(m) => write!(f, "invalid ND-range: {m}"),
            Error::NotSupported(m) => write!(f, "not supported yet: {m}"),
            Error::Image(m) => write!(f, "invalid image: {m}"),
            Error::Pipe(m) => write!(f, "pipe: {m}"),
            Error::Enqueue(m) => write!(f, "device-side enqueue: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// The shape of a launch: 1 to 3 dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub dims: u32,
    pub global: [usize; 3],
    pub offset: [usize; 3],
    /// `None`: the runtime chooses.
    pub local: Option<[usize; 3]>,
}

impl NdRange {
    /// A 1-dimensional range of `n` work-items with no offset.
    pub fn linear(n: usize) -> NdRange {
        NdRange { dims: 1, global: [n, 1, 1], offset: [0; 3], local: None }
    }

    /// Total number of work-items.
    pub fn len(&self) -> usize {
        self.global.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a kernel parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A scalar, vector or struct passed by value.
    Value,
    Global,
    Constant,
    /// A `__local` pointer: the launch gives its size.
    Local,
    Image,
    Sampler,
    /// A pipe (its packet size in [`ArgInfo::packet_size`]).
    Pipe,
    /// A `queue_t`: the launch's device queue, which the runtime passes
    /// itself (the host sets nothing).
    Queue,
    Other,
}

/// A kernel parameter, as the program describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInfo {
    pub name: String,
    /// The type as written (`__global float *`, `uint4`).
    pub type_name: String,
    pub kind: ArgKind,
    /// Bytes of a value argument.
    pub size: usize,
    pub align: usize,
    /// An image parameter's type and access qualifier.
    pub image: Option<(ImageType, ImageAccess)>,
    /// A pipe parameter's packet size in bytes.
    pub packet_size: Option<usize>,
}

/// A kernel of a program.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    pub args: Vec<ArgInfo>,
    /// Bytes of the kernel's own `__local` variables per group.
    pub local_mem: usize,
    pub reqd_work_group_size: Option<[usize; 3]>,
    /// Synchronises its group in a shape the compiler's region loops do
    /// not express ([`abi::FLAG_GROUP_SYNC`]): groups of one work-item, or
    /// of several with [`KernelInfo::item_threads`].
    pub synchronises: bool,
    /// Cannot tell how the range is cut into groups
    /// ([`abi::FLAG_GROUP_FREE`]): launches run many groups as one.
    pub group_free: bool,
    /// A synchronising kernel that groups of several work-items run with a
    /// thread per work-item ([`abi::FLAG_ITEM_THREADS`]).
    pub item_threads: bool,
    /// The entry runs a row of a group at a time ([`abi::FLAG_ONE_ROW`]).
    pub one_row: bool,
    entry: Entry,
}

/// Host memory kernels read and write (`__global`/`__constant` buffers),
/// aligned for any vector type ([`Block`]).
pub struct Buffer {
    data: Arc<Storage>,
}

/// The unit buffers and local memory are allocated in: 128 bytes, aligned
/// to 128, the size of the largest OpenCL vector (`double16`), whose
/// alignment is its size. Kernels store `float8` and wider with aligned
/// vector instructions: 16-byte alignment crashed them now and then.
#[repr(C, align(128))]
#[derive(Clone, Copy)]
struct Block([u8; 128]);

const ZERO_BLOCK: Block = Block([0; 128]);

struct Storage {
    bytes: UnsafeCell<Box<[Block]>>,
    len: usize,
}

// SAFETY: kernels and the host reach the bytes through raw pointers only
// while a launch runs (kernels) or while no launch uses the buffer (the
// host, through `&mut`/`&` of `Buffer`, which a launch borrows).
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

/// Types whose bytes can be copied in and out of buffers.
///
/// # Safety
/// Every bit pattern must be a valid value, with no padding.
pub unsafe trait Pod: Copy + 'static {}
macro_rules! pod {
    ($($t:ty)*) => { $(unsafe impl Pod for $t {})* };
}
pod!(u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 usize isize);
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}

impl Buffer {
    /// `len` zero bytes.
    pub fn new(len: usize) -> Buffer {
        let blocks = len.div_ceil(128).max(1);
        Buffer { data: Arc::new(Storage { bytes: UnsafeCell::new(vec![ZERO_BLOCK; blocks].into_boxed_slice()), len }) }
    }

    /// A buffer holding a copy of `items`.
    pub fn from_slice<T: Pod>(items: &[T]) -> Buffer {
        let b = Buffer::new(std::mem::size_of_val(items));
        b.copy_in(as_bytes(items));
        b
    }

    pub fn len(&self) -> usize {
        self.data.len
    }

    pub fn is_empty(&self) -> bool {
        self.data.len == 0
    }

    fn ptr(&self) -> *mut u8 {
        // SAFETY: the storage outlives the pointer's uses (launches borrow
        // the buffer).
        unsafe { (*self.data.bytes.get()).as_mut_ptr().cast() }
    }

    /// Copies `bytes` to the start of the buffer (at most its length).
    fn copy_in(&self, bytes: &[u8]) {
        let n = bytes.len().min(self.data.len);
        // SAFETY: `n` bytes fit; no launch runs while the host writes
        // (launches are synchronous and borrow their kernel).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr(), n) }
    }

    /// The contents as `T`s (the length must be a multiple of `T`'s size).
    pub fn read<T: Pod>(&self) -> Vec<T> {
        let n = self.data.len / std::mem::size_of::<T>().max(1);
        let mut out = Vec::with_capacity(n);
        // SAFETY: `n` whole `T`s lie in the buffer, which is aligned for
        // any vector type; `Pod` makes every bit pattern valid.
        unsafe {
            std::ptr::copy_nonoverlapping(self.ptr().cast::<T>(), out.as_mut_ptr(), n);
            out.set_len(n);
        }
        out
    }

    /// Overwrites the start of the buffer with `items`.
    pub fn write<T: Pod>(&mut self, items: &[T]) -> Result<(), Error> {
        let bytes = as_bytes(items);
        if bytes.len() > self.data.len {
            return Err(Error::Range(format!("writing {} bytes into a buffer of {}", bytes.len(), self.data.len)));
        }
        self.copy_in(bytes);
        Ok(())
    }
}

fn as_bytes<T: Pod>(items: &[T]) -> &[u8] {
    // SAFETY: `Pod` types have no padding.
    unsafe { std::slice::from_raw_parts(items.as_ptr().cast(), std::mem::size_of_val(items)) }
}

/// A kernel argument.
pub enum Arg<'b> {
    Buffer(&'b Buffer),
    /// A scalar, vector or struct value: its bytes.
    Value(Vec<u8>),
    /// The size in bytes of a `__local` pointer argument's memory.
    Local(usize),
    Image(&'b Image),
    Sampler(Sampler),
    Pipe(&'b Pipe),
}

impl Arg<'_> {
    /// A value argument from a `Pod` value.
    pub fn value<T: Pod>(v: T) -> Arg<'static> {
        Arg::Value(as_bytes(std::slice::from_ref(&v)).to_vec())
    }
}

/// A program: its kernels and whatever keeps their code alive.
pub struct Program {
    kernels: Vec<KernelInfo>,
    owner: Arc<dyn Any + Send + Sync>,
}

impl Program {
    /// A program from a kernel table; `owner` keeps the code alive as long
    /// as the program.
    ///
    /// # Safety
    /// `table` must point to a `__clc_kernel_table` emitted by clc, whose
    /// code and data stay valid while `owner` lives.
    pub unsafe fn from_table(table: *const KernelTable, owner: Box<dyn Any + Send + Sync>) -> Result<Program, Error> {
        // SAFETY: the caller vouches for the table.
        let t = unsafe { table.as_ref() }.ok_or_else(|| Error::BadProgram("no kernel table".into()))?;
        if t.version != abi::ABI_VERSION {
            return Err(Error::BadProgram(format!("kernel table version {} (this runtime reads {})", t.version, abi::ABI_VERSION)));
        }
        let mut kernels = Vec::with_capacity(t.count as usize);
        for i in 0..t.count as usize {
            // SAFETY: the table holds `count` descriptors, each with
            // `num_args` argument descriptors and NUL-terminated names.
            let (d, args) = unsafe {
                let d = &*t.kernels.add(i);
                (d, std::slice::from_raw_parts(d.args, d.num_args as usize))
            };
            let text = |p: *const std::ffi::c_char| if p.is_null() { String::new() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() };
            let args = args
                .iter()
                .map(|a| ArgInfo {
                    name: text(a.name),
                    type_name: text(a.type_name),
                    kind: match a.kind {
                        abi::ARG_VALUE => ArgKind::Value,
                        abi::ARG_GLOBAL => ArgKind::Global,
                        abi::ARG_CONSTANT => ArgKind::Constant,
                        abi::ARG_LOCAL => ArgKind::Local,
                        abi::ARG_IMAGE => ArgKind::Image,
                        abi::ARG_SAMPLER => ArgKind::Sampler,
                        abi::ARG_PIPE => ArgKind::Pipe,
                        abi::ARG_QUEUE => ArgKind::Queue,
                        _ => ArgKind::Other,
                    },
                    size: a.size as usize,
                    align: a.align as usize,
                    image: match (a.kind, ImageType::from_code(a.info & 0xFF)) {
                        (abi::ARG_IMAGE, Some(t)) => Some((
                            t,
                            match (a.info & abi::IMAGE_READ != 0, a.info & abi::IMAGE_WRITE != 0) {
                                (true, true) => ImageAccess::ReadWrite,
                                (false, true) => ImageAccess::WriteOnly,
                                _ => ImageAccess::ReadOnly,
                            },
                        )),
                        _ => None,
                    },
                    packet_size: (a.kind == abi::ARG_PIPE).then_some(a.info as usize),
                })
                .collect();
            let r = d.reqd_work_group_size;
            kernels.push(KernelInfo {
                name: text(d.name),
                args,
                local_mem: d.local_mem as usize,
                reqd_work_group_size: (r != [0; 3]).then(|| r.map(|x| x as usize)),
                synchronises: d.flags & abi::FLAG_GROUP_SYNC != 0,
                group_free: d.flags & abi::FLAG_GROUP_FREE != 0,
                item_threads: d.flags & abi::FLAG_ITEM_THREADS != 0,
                one_row: d.flags & abi::FLAG_ONE_ROW != 0,
                entry: d.entry,
            });
        }
        Ok(Program { kernels, owner: Arc::from(owner) })
    }

    /// Loads a program compiled ahead of time: a shared object linked from
    /// `clc -c` output (`cc -shared kernels.o -o kernels.so`), which
    /// exports `__clc_kernel_table`. No LLVM is involved.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Program, Error> {
        let path = path.as_ref();
        preload_libmvec();
        // SAFETY: loading a library runs its initialisers; objects clc
        // emits have none.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| Error::BadProgram(format!("cannot load '{}': {e}", path.display())))?;
        // SAFETY: the symbol is the table clc emits (checked by version).
        let table = unsafe { lib.get::<*const KernelTable>(b"__clc_kernel_table\0") }
            .map(|s| *s)
            .map_err(|_| Error::BadProgram(format!("'{}' has no kernel table (was it compiled by clc for the CPU?)", path.display())))?;
        // SAFETY: the table and its code live as long as the library,
        // which the program keeps.
        unsafe { Program::from_table(table, Box::new(lib)) }
    }

    /// Every kernel, in declaration order.
    pub fn kernels(&self) -> &[KernelInfo] {
        &self.kernels
    }

    /// A kernel, ready to take its arguments.
    pub fn kernel(&self, name: &str) -> Result<Kernel<'_>, Error> {
        let info = self.kernels.iter().find(|k| k.name == name).ok_or_else(|| Error::UnknownKernel {
            name: name.to_string(),
            available: self.kernels.iter().map(|k| k.name.clone()).collect(),
        })?;
        Ok(Kernel { info, args: (0..info.args.len()).map(|_| None).collect(), owner: self.owner.clone() })
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program").field("kernels", &self.kernels.iter().map(|k| &k.name).collect::<Vec<_>>()).finish()
    }
}

/// A kernel with its arguments being set.
pub struct Kernel<'p> {
    info: &'p KernelInfo,
    args: Vec<Option<ArgSlot>>,
    /// Keeps the code alive for launches that outlive the program handle.
    owner: Arc<dyn Any + Send + Sync>,
}

enum ArgSlot {
    /// A buffer, kept alive by the kernel while it is an argument.
    Buffer(Arc<Storage>),
    Value(Vec<u8>),
    Local(usize),
    /// An image, kept alive by the kernel while it is an argument.
    Image(Arc<image::ImageStorage>),
    /// A pipe, kept alive by the kernel while it is an argument.
    Pipe(Arc<pipe::PipeStorage>),
}

impl fmt::Debug for Kernel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kernel").field("name", &self.info.name).field("args_set", &self.args.iter().filter(|a| a.is_some()).count()).finish()
    }
}

impl<'p> Kernel<'p> {
    pub fn info(&self) -> &'p KernelInfo {
        self.info
    }

    fn arg_error(&self, index: usize, message: String) -> Error {
        Error::Arg { kernel: self.info.name.clone(), index, message }
    }

    /// Sets argument `index`, checking it against the parameter.
    pub fn set_arg(&mut self, index: usize, arg: Arg<'_>) -> Result<(), Error> {
        let Some(p) = self.info.args.get(index) else {
            return Err(self.arg_error(index, format!("the kernel takes {} arguments", self.info.args.len())));
        };
        let what = format!("'{}' is {}", p.name, p.type_name);
        let slot = match (p.kind, arg) {
            (ArgKind::Global | ArgKind::Constant, Arg::Buffer(b)) => ArgSlot::Buffer(b.data.clone()),
            (ArgKind::Value, Arg::Value(bytes)) if bytes.len() == p.size => ArgSlot::Value(bytes),
            (ArgKind::Value, Arg::Value(bytes)) => return Err(self.arg_error(index, format!("{what}, {} bytes; got {} bytes", p.size, bytes.len()))),
            (ArgKind::Local, Arg::Local(0)) => return Err(self.arg_error(index, format!("{what}: the local memory size must not be 0"))),
            (ArgKind::Local, Arg::Local(n)) => ArgSlot::Local(n),
            (ArgKind::Image, Arg::Image(img)) => {
                let Some((ty, access)) = p.image else {
                    return Err(Error::NotSupported(format!("kernel '{}', argument {index}: {what}", self.info.name)));
                };
                if img.image_type() != ty {
                    return Err(self.arg_error(index, format!("{what}; got an {}", img.image_type().name())));
                }
                let (reads, writes) = (access != ImageAccess::WriteOnly, access != ImageAccess::ReadOnly);
                if (reads && img.access() == ImageAccess::WriteOnly) || (writes && img.access() == ImageAccess::ReadOnly) {
                    return Err(self.arg_error(index, format!("{what}; got a {:?} image", img.access())));
                }
                ArgSlot::Image(img.data.clone())
            }
            (ArgKind::Sampler, Arg::Sampler(s)) => ArgSlot::Value(s.bits().to_ne_bytes().to_vec()),
            (ArgKind::Pipe, Arg::Pipe(pipe)) => {
                let want = p.packet_size.unwrap_or(0);
                if pipe.packet_size() != want {
                    return Err(self.arg_error(index, format!("{what}, packets of {want} bytes; got a pipe of {}-byte packets", pipe.packet_size())));
                }
                ArgSlot::Pipe(pipe.data.clone())
            }
            (ArgKind::Pipe, _) => return Err(self.arg_error(index, format!("{what}: expected a pipe"))),
            (ArgKind::Image, _) => return Err(self.arg_error(index, format!("{what}: expected an image"))),
            (ArgKind::Sampler, _) => return Err(self.arg_error(index, format!("{what}: expected a sampler"))),
            (ArgKind::Queue, _) => return Err(self.arg_error(index, format!("{what}: the runtime passes the device queue itself"))),
            (ArgKind::Other, _) => return Err(Error::NotSupported(format!("kernel '{}', argument {index}: {what}", self.info.name))),
            (ArgKind::Global | ArgKind::Constant, _) => return Err(self.arg_error(index, format!("{what}: expected a buffer"))),
            (ArgKind::Value, _) => return Err(self.arg_error(index, format!("{what}: expected a value of {} bytes", p.size))),
            (ArgKind::Local, _) => return Err(self.arg_error(index, format!("{what}: expected a local memory size"))),
        };
        self.args[index] = Some(slot);
        Ok(())
    }

    /// The local size a launch uses: the range's, checked, or one chosen.
    fn local_size(&self, r: &NdRange) -> Result<[usize; 3], Error> {
        let dims = r.dims as usize;
        let local = match (r.local, self.info.reqd_work_group_size) {
            (Some(l), Some(req)) if l[..dims] != req[..dims] => {
                return Err(Error::Range(format!("local size {:?} differs from the kernel's reqd_work_group_size {:?}", &l[..dims], &req[..dims])));
            }
            (Some(l), _) => l,
            (None, Some(req)) => req,
            // Unexpressed synchronisation: one work-item per group unless
            // asked (more take a thread each).
            (None, None) if self.info.synchronises => [1, 1, 1],
            (None, None) => {
                // Long rows of work-items vectorise: up to 256 along x.
                let mut l = [1usize; 3];
                l[0] = r.global[0].clamp(1, 256);
                l
            }
        };
        let mut l = local;
        for x in l.iter_mut().skip(dims) {
            *x = 1;
        }
        if l.contains(&0) {
            return Err(Error::Range(format!("local size {:?} has a zero dimension", &l[..dims])));
        }
        let n: usize = l.iter().product();
        if n > MAX_WORK_GROUP_SIZE {
            return Err(Error::Range(format!("local size {:?} is {n} work-items; at most {MAX_WORK_GROUP_SIZE}", &l[..dims])));
        }
        if self.info.synchronises && n > 1 && !self.info.item_threads {
            return Err(Error::NotSupported(format!(
                "kernel '{}' uses barriers or work-group functions; work-groups of more than one work-item are not supported yet",
                self.info.name
            )));
        }
        Ok(l)
    }

    /// Runs the kernel over `range` on all cores and waits for it.
    pub fn launch(&self, range: &NdRange) -> Result<(), Error> {
        let run = self.prepare(range)?;
        run.run();
        run.finish();
        run.run_children()
    }

    /// Starts the kernel over `range` and returns at once; the event says
    /// when it has finished. The arguments are captured as they are now
    /// (buffers stay alive until the launch ends); the host must not touch
    /// the buffers before waiting.
    pub fn launch_async(&self, range: &NdRange) -> Result<Event, Error> {
        let run = self.prepare(range)?;
        let (tx, rx) = std::sync::mpsc::channel();
        pool().spawn(move || {
            run.run();
            run.finish();
            // An error of a child (a wait for a user event no one
            // completes) has no one to report to here: the children
            // that could run have.
            let _ = run.run_children();
            let _ = tx.send(());
        });
        Ok(Event { done: rx })
    }

    /// Checks a launch and fixes everything it needs.
    fn prepare(&self, range: &NdRange) -> Result<Launch, Error> {
        if !(1..=3).contains(&range.dims) {
            return Err(Error::Range(format!("{} dimensions; 1 to 3 are allowed", range.dims)));
        }
        let dims = range.dims as usize;
        if range.global[..dims].contains(&0) {
            return Err(Error::Range(format!("global size {:?} has a zero dimension", &range.global[..dims])));
        }
        for (i, a) in self.args.iter().enumerate() {
            if a.is_none() && self.info.args[i].kind != ArgKind::Queue {
                let p = &self.info.args[i];
                return Err(self.arg_error(i, format!("'{}' ({}) is not set", p.name, p.type_name)));
            }
        }
        for d in 0..dims {
            if range.offset[d].checked_add(range.global[d]).is_none_or(|end| end > MAX_GLOBAL_ID) {
                return Err(Error::Range(format!("global offset {} plus global size {} in dimension {d} exceeds {MAX_GLOBAL_ID}", range.offset[d], range.global[d])));
            }
        }
        let mut global = [1usize; 3];
        global[..dims].copy_from_slice(&range.global[..dims]);
        let mut offset = [0usize; 3];
        offset[..dims].copy_from_slice(&range.offset[..dims]);
        let local = self.local_size(range)?;
        let groups: [usize; 3] = std::array::from_fn(|d| global[d].div_ceil(local[d]));
        if let Some(d) = (0..dims).find(|&d| groups[d] > MAX_GROUPS) {
            return Err(Error::Range(format!("{} work-groups in dimension {d}; at most {MAX_GROUPS}", groups[d])));
        }
        // Local memory: the kernel's variables, then each `__local`
        // argument, 128-byte aligned.
        let mut local_bytes = self.info.local_mem.next_multiple_of(128);
        let mut local_args = Vec::new();
        for (i, a) in self.args.iter().enumerate() {
            if let Some(ArgSlot::Local(n)) = a {
                local_args.push((i, local_bytes));
                local_bytes = (local_bytes + n).next_multiple_of(128);
            }
        }
        if local_bytes > LOCAL_MEM_SIZE {
            return Err(Error::Range(format!("the kernel needs {local_bytes} bytes of local memory per group; at most {LOCAL_MEM_SIZE}")));
        }
        // At least one block, so that every worker has an arena.
        let local_bytes = local_bytes.max(128);
        let queue = enqueue::DeviceQueue::new(self.owner.clone());
        let template = Group::new(range.dims, offset.map(|x| x as u64), global.map(|x| x as u64), local.map(|x| x as u64), groups.map(|x| x as u64), local_bytes as u64, queue.desc_ptr());
        // Argument values, shared by every group but for `__local`
        // pointers, which each worker fills in for its own memory.
        let values: Vec<Vec<u8>> = self
            .args
            .iter()
            .map(|a| match a {
                Some(ArgSlot::Buffer(data)) => (Buffer { data: data.clone() }.ptr() as usize).to_ne_bytes().to_vec(),
                Some(ArgSlot::Value(v)) => v.clone(),
                Some(ArgSlot::Image(img)) => (img.desc_ptr() as usize).to_ne_bytes().to_vec(),
                Some(ArgSlot::Pipe(pipe)) => (pipe.desc_ptr() as usize).to_ne_bytes().to_vec(),
                None => (queue.desc_ptr() as usize).to_ne_bytes().to_vec(),
                _ => vec![0u8; 8],
            })
            .collect();
        let total = groups[0] * groups[1] * groups[2];
        let entry = self.info.entry;
        let keep = self
            .args
            .iter()
            .filter_map(|a| match a {
                Some(ArgSlot::Buffer(d)) => Some(d.clone() as Arc<dyn Any + Send + Sync>),
                Some(ArgSlot::Image(d)) => Some(d.clone() as Arc<dyn Any + Send + Sync>),
                Some(ArgSlot::Pipe(d)) => Some(d.clone() as Arc<dyn Any + Send + Sync>),
                _ => None,
            })
            .collect();
        // Each pipe once (a kernel may read and write one pipe through two
        // arguments), taken for the launch: the last thing that can fail.
        let mut pipes: Vec<Arc<pipe::PipeStorage>> = Vec::new();
        for (i, a) in self.args.iter().enumerate() {
            if let Some(ArgSlot::Pipe(d)) = a
                && !pipes.iter().any(|q| Arc::ptr_eq(q, d))
            {
                if !d.take() {
                    pipes.iter().for_each(|q| q.give_back());
                    return Err(self.arg_error(i, format!("'{}': the pipe is in use by a launch that has not finished", self.info.args[i].name)));
                }
                pipes.push(d.clone());
            }
        }
        Ok(Launch {
            entry,
            template,
            values,
            local_args,
            local_bytes,
            groups,
            local,
            global,
            total,
            group_free: self.info.group_free,
            one_row: self.info.one_row,
            item_threads: self.info.item_threads && self.info.synchronises && local.iter().product::<usize>() > 1,
            pipes,
            queue,
            _keep: keep,
            _owner: self.owner.clone(),
        })
    }
}

/// A launch started by [`Kernel::launch_async`].
pub struct Event {
    done: std::sync::mpsc::Receiver<()>,
}

impl Event {
    /// Blocks until the launch has finished.
    pub fn wait(self) {
        let _ = self.done.recv();
    }

    /// Has the launch finished?
    pub fn is_complete(&self) -> bool {
        !matches!(self.done.try_recv(), Err(std::sync::mpsc::TryRecvError::Empty))
    }
}

impl Launch {
    /// After [`Launch::finish`]: runs the children the launch's kernels
    /// enqueued (and theirs), each after its wait list
    /// ([`enqueue`](crate::enqueue)).
    fn run_children(&self) -> Result<(), Error> {
        self.queue.drain(&|queue, entry, flags, block, range, locals| Launch::child(queue, entry, flags, block, range, locals).run())
    }

    /// A child launch: `entry` over `range` with the block object `block`
    /// as argument 0 and `__local` pointers of the `locals` sizes after
    /// it (the queue checked the range and sizes); a thread per work-item
    /// where `flags` has [`abi::FLAG_ITEM_THREADS`] and a group has more
    /// than one.
    fn child(queue: &Arc<enqueue::DeviceQueue>, entry: Entry, flags: u64, block: *const u8, range: &abi::NdRangeDesc, locals: &[u64]) -> Launch {
        let dims = range.work_dim as usize;
        let local = enqueue::child_local_size(range);
        let global: [usize; 3] = std::array::from_fn(|d| if d < dims { range.global_size[d] as usize } else { 1 });
        let offset: [u64; 3] = std::array::from_fn(|d| if d < dims { range.global_offset[d] } else { 0 });
        let local = local.map(|x| x as usize);
        let groups: [usize; 3] = std::array::from_fn(|d| global[d].div_ceil(local[d]));
        let mut values = vec![(block as usize).to_ne_bytes().to_vec()];
        let mut local_args = Vec::new();
        let mut local_bytes = 0usize;
        for (i, &n) in locals.iter().enumerate() {
            local_args.push((i + 1, local_bytes));
            local_bytes = (local_bytes + n as usize).next_multiple_of(128);
            values.push(vec![0u8; 8]);
        }
        let local_bytes = local_bytes.max(128);
        let template = Group::new(range.work_dim as u32, offset, global.map(|x| x as u64), local.map(|x| x as u64), groups.map(|x| x as u64), local_bytes as u64, queue.desc_ptr());
        Launch {
            entry,
            template,
            values,
            local_args,
            local_bytes,
            groups,
            local,
            global,
            total: groups.iter().product(),
            group_free: false,
            one_row: false,
            item_threads: flags & u64::from(abi::FLAG_ITEM_THREADS) != 0 && local.iter().product::<usize>() > 1,
            pipes: Vec::new(),
            queue: queue.clone(),
            _keep: Vec::new(),
            _owner: queue.owner.clone(),
        }
    }

    /// After [`Launch::run`]: the packets kernels read leave their pipes,
    /// those they wrote join them (visible to the next launch, as OpenCL
    /// 2.0 has it), and the pipes are free again.
    fn finish(&self) {
        for p in &self.pipes {
            p.finish_launch();
        }
    }

    /// Runs every group on the pool and waits.
    fn run(&self) {
        if self.item_threads {
            self.run_item_threads();
            return;
        }
        // Batches of consecutive groups along x, one entry call each:
        // enough batches to balance the threads, few enough that calls and
        // scheduling cost nothing next to the work.
        let threads = pool().current_num_threads().max(1);
        let per = (self.total / (threads * 16)).clamp(1, self.groups[0]);
        let per_row = self.groups[0].div_ceil(per);
        let batches = per_row * self.groups[1] * self.groups[2];
        pool().install(|| (0..batches).into_par_iter().for_each_init(|| Worker::new(self), |w, b| w.run_batch(self, b, per, per_row)));
    }
}

impl Launch {
    /// Runs the groups one after the other, each with a thread per
    /// work-item meeting at its barriers ([`abi::FLAG_ITEM_THREADS`]).
    fn run_item_threads(&self) {
        let mut worker = Worker::new(self);
        let base = worker.local.as_mut_ptr().cast::<u8>();
        let size = |d: usize, id: usize| self.local[d].min(self.global[d] - id * self.local[d]) as u64;
        for gz in 0..self.groups[2] {
            for gy in 0..self.groups[1] {
                for gx in 0..self.groups[0] {
                    let mut group = self.template;
                    group.local_mem = base;
                    group.place([gx as u64, gy as u64, gz as u64]);
                    group.local_size = [size(0, gx), size(1, gy), size(2, gz)];
                    let ls = group.local_size;
                    let n = (ls[0] * ls[1] * ls[2]) as usize;
                    let barrier = ItemBarrier::new(n);
                    group.barrier = Some(item_barrier);
                    group.barrier_ctx = (&barrier as *const ItemBarrier).cast_mut().cast();
                    let ids: Vec<[u64; 3]> = (0..n as u64).map(|i| [i % ls[0], i / ls[0] % ls[1], i / (ls[0] * ls[1])]).collect();
                    let shared = SendPtrs { args: worker.ptrs.as_ptr(), group: &group };
                    std::thread::scope(|s| {
                        for id in &ids {
                            let shared = &shared;
                            let barrier = &barrier;
                            let spawned = std::thread::Builder::new().stack_size(1 << 20).spawn_scoped(s, move || {
                                let mut g = *shared.group;
                                g.only_item = id;
                                g.stack = thread_stack();
                                // SAFETY: the kernel's entry with its
                                // arguments (alive for the scope) and a
                                // filled-in group naming one work-item; the
                                // barrier context outlives the scope.
                                unsafe { (self.entry)(shared.args, &g) };
                                barrier.leave();
                            });
                            if spawned.is_err() {
                                // No thread: the work-item cannot run; its
                                // group-mates must not wait for it.
                                barrier.leave();
                            }
                        }
                    });
                }
            }
        }
    }
}

/// The stack of the calling thread, `[lowest address, end)`, as
/// `Group::stack` holds it; `[0, 0)` where the system does not tell.
/// (Asked once per thread: for the main thread the C library reads
/// `/proc/self/maps`.)
pub fn thread_stack() -> [u64; 2] {
    thread_local! {
        static STACK: [u64; 2] = ask_stack();
    }
    STACK.with(|s| *s)
}

#[cfg(target_os = "linux")]
fn ask_stack() -> [u64; 2] {
    // SAFETY: `attr` is initialised by pthread_getattr_np before it is
    // read and destroyed once; the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return [0; 2];
        }
        let mut addr: *mut c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if ok { [addr as u64, addr as u64 + size as u64] } else { [0; 2] }
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_stack() -> [u64; 2] {
    [0; 2]
}

/// The argument array and group the work-item threads of a group share.
struct SendPtrs<'a> {
    args: *const *mut c_void,
    group: &'a Group,
}

// SAFETY: the pointers are only read while the group runs; the argument
// values and the group outlive its threads (a scoped spawn).
unsafe impl Sync for SendPtrs<'_> {}

/// A group's barrier for work-items on threads: every work-item still
/// running waits until all of them have arrived. A work-item that returns
/// leaves it, so the others are not kept waiting for it (a kernel whose
/// work-items do not all reach a barrier is not conforming, but it must
/// not hang).
struct ItemBarrier {
    state: std::sync::Mutex<(usize, usize, u64)>,
    cv: std::sync::Condvar,
}

impl ItemBarrier {
    fn new(n: usize) -> ItemBarrier {
        ItemBarrier { state: std::sync::Mutex::new((n, 0, 0)), cv: std::sync::Condvar::new() }
    }

    /// (active, waiting, generation)
    fn wait(&self) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.1 += 1;
        if st.1 >= st.0 {
            st.1 = 0;
            st.2 += 1;
            self.cv.notify_all();
            return;
        }
        let generation = st.2;
        while st.2 == generation {
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn leave(&self) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0 -= 1;
        if st.1 > 0 && st.1 >= st.0 {
            st.1 = 0;
            st.2 += 1;
            self.cv.notify_all();
        }
    }
}

/// `Group::barrier` for [`ItemBarrier`]s.
unsafe extern "C" fn item_barrier(ctx: *mut c_void) {
    // SAFETY: the runtime sets `barrier_ctx` to the group's ItemBarrier,
    // alive while the group's work-items run.
    let b = unsafe { &*(ctx as *const ItemBarrier) };
    b.wait();
}

/// What every group of a launch shares.
struct Launch {
    entry: Entry,
    template: Group,
    values: Vec<Vec<u8>>,
    /// `__local` pointer arguments: (index, offset in local memory).
    local_args: Vec<(usize, usize)>,
    local_bytes: usize,
    groups: [usize; 3],
    local: [usize; 3],
    global: [usize; 3],
    total: usize,
    /// A batch of groups runs as one group ([`abi::FLAG_GROUP_FREE`]).
    group_free: bool,
    /// The entry runs a row of a group at a time (see [`abi::Group::row`]).
    one_row: bool,
    /// Each group runs with a thread per work-item
    /// ([`abi::FLAG_ITEM_THREADS`]).
    item_threads: bool,
    /// The pipes the launch holds (each once), whose claims it folds in
    /// when it ends ([`Launch::finish`]).
    pipes: Vec<Arc<pipe::PipeStorage>>,
    /// The device queue the launch's kernels enqueue children on.
    queue: Arc<enqueue::DeviceQueue>,
    /// The buffers, images, pipes and code the launch uses, alive until it
    /// ends.
    _keep: Vec<Arc<dyn Any + Send + Sync>>,
    _owner: Arc<dyn Any + Send + Sync>,
}

// SAFETY: the raw pointers in a launch (buffer addresses in `values`) are
// only passed to the kernel, which may use them from any thread; the
// buffers they point into are kept alive by `_keep`.
unsafe impl Sync for Launch {}
unsafe impl Send for Launch {}

/// One worker thread's state: its local memory and argument array.
struct Worker {
    local: Box<[Block]>,
    /// The argument values `ptrs` points into (owned here).
    _values: Vec<Vec<u8>>,
    /// Pointers to `values`, as the entry reads its arguments.
    ptrs: Vec<*mut c_void>,
}

impl Worker {
    fn new(run: &Launch) -> Worker {
        let mut local = vec![ZERO_BLOCK; run.local_bytes.div_ceil(128)].into_boxed_slice();
        let mut values = run.values.clone();
        let base = local.as_mut_ptr().cast::<u8>();
        for &(i, off) in &run.local_args {
            // SAFETY: `off` lies inside this worker's local memory.
            let p = unsafe { base.add(off) } as usize;
            values[i] = p.to_ne_bytes().to_vec();
        }
        let ptrs = values.iter_mut().map(|v| v.as_mut_ptr().cast()).collect();
        Worker { local, _values: values, ptrs }
    }

    /// Runs batch `b`: up to `per` groups along x of one row.
    fn run_batch(&mut self, run: &Launch, b: usize, per: usize, per_row: usize) {
        let base = self.local.as_mut_ptr().cast::<u8>();
        let row = b / per_row;
        let x0 = (b % per_row) * per;
        let count = per.min(run.groups[0] - x0);
        let mut group = run.template;
        group.local_mem = base;
        group.stack = thread_stack();
        let (y, z) = (row % run.groups[1], row / run.groups[1]);
        // The last group of a dimension the local size does not divide is
        // smaller (OpenCL 2.0 non-uniform work-groups).
        let size = |d: usize, id: usize| run.local[d].min(run.global[d] - id * run.local[d]) as u64;
        group.local_size[1] = size(1, y);
        group.local_size[2] = size(2, z);
        if run.group_free {
            // One group as wide as the batch: batch `b % per_row` of the
            // row, `per` groups wide, so that group id × enqueued size is
            // the first work-item's global id, as for the groups it
            // stands for.
            group.enqueued_local_size[0] = (per * run.local[0]) as u64;
            group.place([(b % per_row) as u64, y as u64, z as u64]);
            group.local_size[0] = (count * run.local[0]).min(run.global[0] - x0 * run.local[0]) as u64;
            // SAFETY: as below; the kernel reads nothing the merged group
            // changes but the global ids, which stay right.
            unsafe { group.run(run.entry, self.ptrs.as_ptr(), run.one_row) };
            return;
        }
        for x in x0..x0 + count {
            group.place([x as u64, y as u64, z as u64]);
            group.local_size[0] = size(0, x);
            // SAFETY: the entry is the kernel's work-group entry from its
            // program's table; `ptrs` holds one pointer per parameter, each
            // to a value of the parameter's size (in `values`, which this
            // worker owns); the group is filled in.
            unsafe { group.run(run.entry, self.ptrs.as_ptr(), run.one_row) };
        }
    }
}

/// Makes glibc's vector math library visible to libraries loaded later
/// (once): vectorised kernels call its functions, and a shared object
/// linked without `-lmvec` still resolves them then. Without it (not a
/// glibc system) such a program fails to load with the loader's message.
fn preload_libmvec() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        #[cfg(unix)]
        {
            use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
            // SAFETY: libmvec has no initialisers with preconditions; it
            // stays loaded for the life of the process.
            if let Ok(lib) = unsafe { Library::open(Some("libmvec.so.1"), RTLD_NOW | RTLD_GLOBAL) } {
                std::mem::forget(lib);
            }
        }
    });
}

/// The pool launches run on: one thread per core, or `CLC_NUM_THREADS`.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::env::var("CLC_NUM_THREADS").ok().and_then(|s| s.parse::<usize>().ok()).filter(|&n| n > 0).unwrap_or(0);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("clc-worker-{i}"))
            .build()
            .unwrap_or_else(|_| rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_range_counts_items() {
        let r = NdRange::linear(7);
        assert_eq!(r.len(), 7);
        assert!(!r.is_empty());
        assert!(NdRange::linear(0).is_empty());
    }

    #[test]
    fn buffers_are_aligned_for_the_widest_vector() {
        // `double16` is 128 bytes and aligned to its size; 16-byte
        // buffers made aligned `float8` stores crash now and then.
        for len in [1, 12, 128, 129, 1000, 4096] {
            let b = Buffer::new(len);
            assert_eq!(b.ptr() as usize % 128, 0, "{len} bytes");
            assert_eq!(b.len(), len);
        }
    }

    #[test]
    fn buffers_round_trip_and_refuse_overflow() {
        let mut b = Buffer::from_slice(&[1.5f32, -2.0, 3.25]);
        assert_eq!(b.len(), 12);
        assert_eq!(b.read::<f32>(), [1.5, -2.0, 3.25]);
        b.write(&[7u32]).unwrap();
        assert_eq!(b.read::<u32>()[0], 7);
        assert!(b.write(&[0u64; 2]).is_err());
        assert_eq!(b.ptr() as usize % 16, 0);
    }
}
