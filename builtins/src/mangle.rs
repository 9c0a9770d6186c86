//! The symbol names clang gives OpenCL C builtins when compiling for SPIR /
//! SPIR-V, so that generated calls are recognised by LLVM's SPIR-V back end
//! (which demangles them to pick OpenCL.std extended instructions and
//! builtin variables).
//!
//! clang declares most builtins in `opencl-c.h` as `__attribute__((overloadable))`
//! functions, which it names with the Itanium C++ ABI:
//! `_Z <length> <name> <parameter types>`, e.g. `get_global_id(uint)` is
//! `_Z13get_global_idj` and `clamp(float4, float4, float4)` is
//! `_Z5clampDv4_fS_S_`. The encoding of each [`Ty`] is described on
//! [`itanium`]. A few builtins are implemented by clang itself and lowered
//! to calls of fixed, unmangled runtime functions instead; see
//! [`clang_runtime_name`].
//!
//! Entry points:
//! - [`mangle`]: the symbol for a 64-bit target (`spir64`, `spirv64`), the
//!   only target clc compiles for;
//! - [`mangle_for`]: the same for a given [`PointerWidth`];
//! - [`itanium`]: the plain Itanium encoding, without clang's special names.
//!
//! None of these panic, whatever the name or parameter types.

use crate::functions::{Access, AddrSpace, PointerTy, Ty};
use crate::types::{Image, Scalar};

/// The pointer width of the target, which decides what `size_t`,
/// `ptrdiff_t`, `intptr_t` and `uintptr_t` are typedefs of (and so how they
/// mangle): `ulong`/`long` (`m`/`l`) on `spir64`, `uint`/`int` (`j`/`i`) on
/// `spir` (32-bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PointerWidth {
    Bits32,
    #[default]
    Bits64,
}

/// How a pointee's address space is written: as SPIR targets write it
/// (`U3AS<n>`, nothing for private), or as clang writes it for other
/// targets, x86-64 among them, by the language's names (`U8CLglobal`,
/// `U7CLlocal`, `U10CLconstant`, `U9CLgeneric`, and `U9CLprivate`, which
/// is written too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Spaces {
    #[default]
    Numbered,
    Named,
}

/// The name clang gives an OpenCL C builtin overload when compiling for
/// 64-bit SPIR / SPIR-V (e.g. `get_global_id(uint)` -> `_Z13get_global_idj`,
/// `sin(float4)` -> `_Z3sinDv4_f`).
///
/// `params` are the overload's parameter types ([`Overload::params`]); the
/// return type is not part of the name. Same as
/// `mangle_for(name, params, PointerWidth::Bits64)`.
///
/// [`Overload::params`]: crate::functions::Overload::params
pub fn mangle(name: &str, params: &[Ty]) -> String {
    mangle_for(name, params, PointerWidth::Bits64)
}

/// The name clang gives an OpenCL C builtin overload on a target with the
/// given pointer width: the fixed runtime name of [`clang_runtime_name`] for
/// the builtins clang lowers itself, the Itanium name ([`itanium`]) for the
/// rest.
pub fn mangle_for(name: &str, params: &[Ty], width: PointerWidth) -> String {
    match clang_runtime_name(name, params) {
        Some(runtime) => runtime.to_string(),
        None => itanium(name, params, width),
    }
}

/// For the builtins that clang implements itself rather than declaring them
/// in `opencl-c.h`, the unmangled function clang's code generation calls;
/// `None` for every other name.
///
/// Only the name is given: the runtime functions take other arguments than
/// the builtin (pipes get the packet size and alignment, `enqueue_kernel`
/// gets the block's invoke function and literal, `to_global` a generic
/// `i8*`), so code generation lowers these calls specially anyway.
///
/// - `printf` keeps its C name;
/// - `to_global`/`to_local`/`to_private` call `__to_global` etc.;
/// - `read_pipe`/`write_pipe` call `__read_pipe_2` or, with a reservation
///   (4 arguments), `__read_pipe_4`;
/// - the reservation functions call `__` + their name
///   (`__work_group_reserve_read_pipe`, `__commit_write_pipe`, …);
/// - `get_pipe_num_packets`/`get_pipe_max_packets` call `__…_ro` or `__…_wo`
///   after the pipe's access qualifier;
/// - `enqueue_kernel` calls `__enqueue_kernel_basic`,
///   `__enqueue_kernel_basic_events`, `__enqueue_kernel_varargs` or
///   `__enqueue_kernel_events_varargs` (events: the wait list precedes the
///   block; varargs: local sizes follow it);
/// - the `get_kernel_*` block queries call `__` + their name + `_impl`.
///
/// `vec_step` and `as_<type>` are not calls at all (an operator and a
/// bitcast); they have no entry here and [`mangle`] gives them the Itanium
/// name a declared function would have.
pub fn clang_runtime_name(name: &str, params: &[Ty]) -> Option<&'static str> {
    Some(match name {
        "printf" => "printf",
        "to_global" => "__to_global",
        "to_local" => "__to_local",
        "to_private" => "__to_private",
        "read_pipe" if params.len() == 4 => "__read_pipe_4",
        "read_pipe" => "__read_pipe_2",
        "write_pipe" if params.len() == 4 => "__write_pipe_4",
        "write_pipe" => "__write_pipe_2",
        "reserve_read_pipe" => "__reserve_read_pipe",
        "reserve_write_pipe" => "__reserve_write_pipe",
        "commit_read_pipe" => "__commit_read_pipe",
        "commit_write_pipe" => "__commit_write_pipe",
        "work_group_reserve_read_pipe" => "__work_group_reserve_read_pipe",
        "work_group_reserve_write_pipe" => "__work_group_reserve_write_pipe",
        "work_group_commit_read_pipe" => "__work_group_commit_read_pipe",
        "work_group_commit_write_pipe" => "__work_group_commit_write_pipe",
        "sub_group_reserve_read_pipe" => "__sub_group_reserve_read_pipe",
        "sub_group_reserve_write_pipe" => "__sub_group_reserve_write_pipe",
        "sub_group_commit_read_pipe" => "__sub_group_commit_read_pipe",
        "sub_group_commit_write_pipe" => "__sub_group_commit_write_pipe",
        "get_pipe_num_packets" if write_only_pipe(params) => "__get_pipe_num_packets_wo",
        "get_pipe_num_packets" => "__get_pipe_num_packets_ro",
        "get_pipe_max_packets" if write_only_pipe(params) => "__get_pipe_max_packets_wo",
        "get_pipe_max_packets" => "__get_pipe_max_packets_ro",
        "enqueue_kernel" => enqueue_kernel_name(params),
        "get_kernel_work_group_size" => "__get_kernel_work_group_size_impl",
        "get_kernel_preferred_work_group_size_multiple" => "__get_kernel_preferred_work_group_size_multiple_impl",
        "get_kernel_sub_group_count_for_ndrange" => "__get_kernel_sub_group_count_for_ndrange_impl",
        "get_kernel_max_sub_group_size_for_ndrange" => "__get_kernel_max_sub_group_size_for_ndrange_impl",
        _ => return None,
    })
}

/// Whether the first parameter is a `write_only` pipe (clang's pipe query
/// functions are named after the access qualifier; `read_write` pipes do not
/// exist, and anything else counts as read-only).
fn write_only_pipe(params: &[Ty]) -> bool {
    matches!(params.first(), Some(Ty::Pipe(Access::WriteOnly)))
}

/// `enqueue_kernel`'s four forms: events when the event arguments come
/// before the block (the block is not the 4th parameter), varargs when
/// local sizes follow the block.
fn enqueue_kernel_name(params: &[Ty]) -> &'static str {
    let block = params.iter().position(|p| *p == Ty::Block);
    let events = block.is_some_and(|i| i > 3);
    let varargs = block.is_some_and(|i| i + 1 < params.len());
    match (events, varargs) {
        (false, false) => "__enqueue_kernel_basic",
        (true, false) => "__enqueue_kernel_basic_events",
        (false, true) => "__enqueue_kernel_varargs",
        (true, true) => "__enqueue_kernel_events_varargs",
    }
}

/// The Itanium C++ name of `name` declared as an overloadable function with
/// these parameter types, as clang writes it for SPIR targets:
/// `_Z`, the name's length in bytes and the name, then each parameter type
/// (`v` alone for an empty list).
///
/// Types are encoded as follows:
/// - builtin scalars by one letter: `bool` `b`, `char` `c` (plain `char`,
///   which OpenCL makes signed, is not `signed char` `a`), `uchar` `h`,
///   `short` `s`, `ushort` `t`, `int` `i`, `uint` `j`, `long` `l`,
///   `ulong` `m`, `float` `f`, `double` `d`, and `half` `Dh`; `size_t` and
///   `ptrdiff_t` as the types they are typedefs of (see [`PointerWidth`]);
///   `void` `v`;
/// - vectors as `Dv<n>_<element>`: `float4` is `Dv4_f`;
/// - pointers as `P`, then the pointee's qualifiers, then the pointee:
///   the address space as the vendor qualifier `U3AS<n>` with SPIR's
///   numbering (global 1, constant 2, local 3, generic 4; private, SPIR's
///   default space 0, writes nothing), then `V` for volatile and `K` for
///   const: `const __global float*` is `PU3AS1Kf`,
///   `volatile __generic atomic_int*` is `PU3AS4VU7_Atomici`;
/// - atomic types as `U7_Atomic` and the value type (`atomic_flag` is
///   `atomic_int` in clang's headers, so `U7_Atomici`);
/// - images as the source names clang gives them, `ocl_image<dims>_<ro|wo|rw>`
///   with their length: `14ocl_image2d_ro`, `26ocl_image2d_array_depth_ro`;
/// - the other opaque types likewise: `11ocl_sampler`, `9ocl_event`,
///   `9ocl_queue`, `12ocl_clkevent`, `13ocl_reserveid`, `8ocl_pipe` (neither
///   the access qualifier nor the packet type is part of a pipe's name);
/// - `ndrange_t`, `memory_order` and `memory_scope`, a struct and two enums
///   in clang's headers, by their names: `9ndrange_t`, `12memory_order`,
///   `12memory_scope`;
/// - a block as a block pointer to a function taking nothing,
///   `U13block_pointerFvvE` (clang never declares a builtin with a block
///   parameter, so this is only what such a declaration would give).
///
/// Every type but the builtin scalars and `void` is a substitution
/// candidate once written, and a repeat is written as a reference to the
/// first: `S_` for the first candidate, then `S0_`, `S1_`, … (base 36).
/// Candidates are recorded inner part first, and a pointee is one with its
/// qualifiers even when they write nothing (`__private`):
/// `clamp(float4, float4, float4)` is `_Z5clampDv4_fS_S_`, and
/// `fract(float4, __private float4*)` is `_Z5fractDv4_fPS_` (`S_` is
/// `float4`; `__private float4` is `S0_` and the pointer `S1_`).
pub fn itanium(name: &str, params: &[Ty], width: PointerWidth) -> String {
    itanium_with(name, params, width, Spaces::Numbered)
}

/// [`itanium`] with the address spaces written as `spaces` says (clang's
/// names for a program's overloads on a target that is not SPIR).
pub fn itanium_with(name: &str, params: &[Ty], width: PointerWidth, spaces: Spaces) -> String {
    let mut m = Mangler { out: format!("_Z{}{name}", name.len()), subs: Vec::new(), width, spaces };
    if params.is_empty() {
        m.out.push('v');
    }
    for p in params {
        m.ty(&canonical(p, width));
    }
    m.out
}

/// `t` with the pointer-sized integers replaced by the types they are
/// typedefs of on the target, and `atomic_flag` by `atomic_int`: clang's
/// substitutions compare canonical types, so these must compare equal to the
/// types they stand for.
fn canonical(t: &Ty, width: PointerWidth) -> Ty {
    match t {
        Ty::Scalar(s) => Ty::Scalar(canonical_scalar(*s, width)),
        Ty::Vector(s, n) => Ty::Vector(canonical_scalar(*s, width), *n),
        Ty::Atomic(s) => Ty::Atomic(Some(canonical_scalar(s.unwrap_or(Scalar::Int), width))),
        Ty::Pointer(p) => Ty::Pointer(Box::new(PointerTy { pointee: canonical(&p.pointee, width), ..**p })),
        other => other.clone(),
    }
}

fn canonical_scalar(s: Scalar, width: PointerWidth) -> Scalar {
    match (s, width) {
        (Scalar::Size, PointerWidth::Bits64) => Scalar::ULong,
        (Scalar::PtrDiff, PointerWidth::Bits64) => Scalar::Long,
        (Scalar::Size, PointerWidth::Bits32) => Scalar::UInt,
        (Scalar::PtrDiff, PointerWidth::Bits32) => Scalar::Int,
        (s, _) => s,
    }
}

/// The code of a builtin scalar type. `Size`/`PtrDiff` only reach here if
/// not made canonical first; they get the 64-bit codes.
fn scalar_code(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "b",
        Scalar::Char => "c",
        Scalar::UChar => "h",
        Scalar::Short => "s",
        Scalar::UShort => "t",
        Scalar::Int => "i",
        Scalar::UInt => "j",
        Scalar::Long | Scalar::PtrDiff => "l",
        Scalar::ULong | Scalar::Size => "m",
        Scalar::Half => "Dh",
        Scalar::Float => "f",
        Scalar::Double => "d",
    }
}

/// The length-prefixed source name of an image type with an access
/// qualifier, e.g. `14ocl_image2d_ro`.
fn image_name(image: Image, access: Access) -> String {
    let dims = image.name().trim_start_matches("image").trim_end_matches("_t");
    let access = match access {
        Access::ReadOnly => "ro",
        Access::WriteOnly => "wo",
        Access::ReadWrite => "rw",
    };
    source_name(&format!("ocl_image{dims}_{access}"))
}

/// An Itanium `<source-name>`: the length, then the identifier.
fn source_name(id: &str) -> String {
    format!("{}{id}", id.len())
}

/// A type that may be referred to by a substitution once written.
#[derive(Clone, Debug, PartialEq)]
enum Candidate {
    /// An unqualified type (vector, pointer, atomic, opaque, enum, struct).
    Type(Ty),
    /// A pointee with its address space and cv-qualifiers. In OpenCL every
    /// pointee has an address space, so every pointee is a qualified type
    /// and a candidate — even `__private float`, whose qualifiers write
    /// nothing.
    Pointee(PointerTy),
    /// `void ()`, the function type of a block.
    BlockFunction,
}

/// The state of one mangling: the output so far and the substitution
/// candidates in the order they were written.
struct Mangler {
    out: String,
    subs: Vec<Candidate>,
    width: PointerWidth,
    spaces: Spaces,
}

impl Mangler {
    /// Writes a (canonical) type. Builtin types (scalars, `void`) are never
    /// substitution candidates; every other type is.
    fn ty(&mut self, t: &Ty) {
        match t {
            Ty::Void => self.out.push('v'),
            Ty::Scalar(s) => self.out.push_str(scalar_code(canonical_scalar(*s, self.width))),
            _ => {
                let candidate = Candidate::Type(t.clone());
                if !self.substitute(&candidate) {
                    self.compound(t);
                    self.subs.push(candidate);
                }
            }
        }
    }

    /// Writes a type that is not a builtin, in full.
    fn compound(&mut self, t: &Ty) {
        let code = match t {
            Ty::Void | Ty::Scalar(_) => return self.ty(t),
            Ty::Vector(s, n) => format!("Dv{n}_{}", scalar_code(canonical_scalar(*s, self.width))),
            Ty::Pointer(p) => {
                self.out.push('P');
                return self.pointee(p);
            }
            Ty::Atomic(s) => {
                self.out.push_str("U7_Atomic");
                return self.ty(&Ty::Scalar(s.unwrap_or(Scalar::Int)));
            }
            Ty::Block => {
                self.out.push_str("U13block_pointer");
                return self.block_function();
            }
            Ty::Image(image, access) => image_name(*image, *access),
            Ty::Sampler => source_name("ocl_sampler"),
            Ty::Event => source_name("ocl_event"),
            Ty::Queue => source_name("ocl_queue"),
            Ty::ClkEvent => source_name("ocl_clkevent"),
            Ty::ReserveId => source_name("ocl_reserveid"),
            Ty::Pipe(_) => source_name("ocl_pipe"),
            Ty::NdRange => source_name("ndrange_t"),
            Ty::MemoryOrder => source_name("memory_order"),
            Ty::MemoryScope => source_name("memory_scope"),
            Ty::Named(name) => source_name(name),
        };
        self.out.push_str(&code);
    }

    /// Writes a pointee with its qualifiers: the address space
    /// ([`Spaces`]), then `V`, then `K`. Itanium orders qualifiers
    /// vendor-extended first, then `r`, `V`, `K`.
    fn pointee(&mut self, p: &PointerTy) {
        let candidate = Candidate::Pointee(p.clone());
        if self.substitute(&candidate) {
            return;
        }
        match self.spaces {
            Spaces::Numbered if p.space != AddrSpace::Private => self.out.push_str(&format!("U3AS{}", p.space as u32)),
            Spaces::Numbered => {}
            Spaces::Named => {
                let name = match p.space {
                    AddrSpace::Private => "CLprivate",
                    AddrSpace::Global => "CLglobal",
                    AddrSpace::Constant => "CLconstant",
                    AddrSpace::Local => "CLlocal",
                    AddrSpace::Generic => "CLgeneric",
                };
                self.out.push('U');
                self.out.push_str(&source_name(name));
            }
        }
        if p.is_volatile {
            self.out.push('V');
        }
        if p.is_const {
            self.out.push('K');
        }
        self.ty(&p.pointee);
        self.subs.push(candidate);
    }

    /// Writes a block's function type, `void ()`: `FvvE`.
    fn block_function(&mut self) {
        if !self.substitute(&Candidate::BlockFunction) {
            self.out.push_str("FvvE");
            self.subs.push(Candidate::BlockFunction);
        }
    }

    /// If `c` was written before, writes a reference to it and returns
    /// true. The first candidate is `S_`, the following ones `S0_`, `S1_`,
    /// …, `S9_`, `SA_`, …, `SZ_`, `S10_`: the index less one in base 36
    /// with upper-case digits. A candidate is recorded after its parts, so
    /// `PU3AS1Dv4_f` records `Dv4_f`, then `U3AS1Dv4_f`, then the pointer.
    fn substitute(&mut self, c: &Candidate) -> bool {
        let Some(index) = self.subs.iter().position(|s| s == c) else {
            return false;
        };
        self.out.push('S');
        if index > 0 {
            self.out.push_str(&base36(index - 1));
        }
        self.out.push('_');
        true
    }
}

/// `n` in base 36 with digits `0-9A-Z`.
fn base36(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut digits = Vec::new();
    loop {
        digits.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

#[cfg(test)]
mod tests;
