//! The layouts clc's native code and this runtime agree on (the compiler
//! side is `clc::codegen::lower::cpu`; `ABI_VERSION` changes with them).

use std::ffi::{c_char, c_void};

/// `KernelTable::version` this runtime understands.
pub const ABI_VERSION: u32 = 3;

/// `ArgDesc::kind`.
pub const ARG_VALUE: u32 = 0;
pub const ARG_GLOBAL: u32 = 1;
pub const ARG_CONSTANT: u32 = 2;
pub const ARG_LOCAL: u32 = 3;
pub const ARG_IMAGE: u32 = 4;
pub const ARG_SAMPLER: u32 = 5;

/// `KernelDesc::flags`: the kernel synchronises its work-group.
pub const FLAG_GROUP_SYNC: u32 = 1;
/// `KernelDesc::flags`: the kernel cannot tell how its range is cut into
/// groups (no synchronisation, no `__local` memory, no query of local ids,
/// sizes, group ids or counts), so the runtime may run consecutive groups
/// along x as one larger group: `group_id[0]` and
/// `enqueued_local_size[0]` then describe the merged group (global ids
/// come out right), and `local_size[0]` is its size.
pub const FLAG_GROUP_FREE: u32 = 2;

/// One work-group, as a kernel's work-group entry reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub work_dim: u32,
    pub pad: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// This group's size (smaller than the enqueued size for the last
    /// group of a dimension that the local size does not divide).
    pub local_size: [u64; 3],
    pub enqueued_local_size: [u64; 3],
    pub num_groups: [u64; 3],
    pub group_id: [u64; 3],
    /// The group's `__local` memory: the kernel's own variables first
    /// (`KernelDesc::local_mem` bytes), then `__local` pointer arguments.
    pub local_mem: *mut u8,
}

/// `__clc_wg_<kernel>(args, group)`: runs every work-item of one group;
/// argument `i` is read from `*args[i]`. (The runtime runs consecutive
/// groups through one entry in a row, so the entry itself is just the
/// work-item loops: less code for LLVM to optimise per kernel.)
pub type Entry = unsafe extern "C" fn(*const *mut c_void, *const Group);

#[repr(C)]
pub struct ArgDesc {
    pub kind: u32,
    pub size: u32,
    pub align: u32,
    pub pad: u32,
    pub type_name: *const c_char,
    pub name: *const c_char,
}

#[repr(C)]
pub struct KernelDesc {
    pub name: *const c_char,
    pub entry: Entry,
    pub num_args: u32,
    pub flags: u32,
    pub reqd_work_group_size: [u32; 3],
    pub pad: u32,
    pub local_mem: u64,
    pub args: *const ArgDesc,
}

/// `__clc_kernel_table`.
#[repr(C)]
pub struct KernelTable {
    pub version: u32,
    pub count: u32,
    pub kernels: *const KernelDesc,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_the_compiler() {
        // The offsets `clc::codegen::lower::cpu` uses.
        assert_eq!(std::mem::offset_of!(Group, global_offset), 8);
        assert_eq!(std::mem::offset_of!(Group, global_size), 32);
        assert_eq!(std::mem::offset_of!(Group, local_size), 56);
        assert_eq!(std::mem::offset_of!(Group, enqueued_local_size), 80);
        assert_eq!(std::mem::offset_of!(Group, num_groups), 104);
        assert_eq!(std::mem::offset_of!(Group, group_id), 128);
        assert_eq!(std::mem::offset_of!(Group, local_mem), 152);
        assert_eq!(std::mem::size_of::<ArgDesc>(), 32);
        assert_eq!(std::mem::offset_of!(KernelDesc, local_mem), 40);
        assert_eq!(std::mem::size_of::<KernelDesc>(), 56);
    }
}
