//! The layouts clc's native code and this runtime agree on (the compiler
//! side is `clc::codegen::lower::cpu`; `ABI_VERSION` changes with them).

use std::ffi::{c_char, c_void};
use std::sync::atomic::AtomicU32;

/// `KernelTable::version` this runtime understands.
pub const ABI_VERSION: u32 = 14;

/// `ArgDesc::kind`.
pub const ARG_VALUE: u32 = 0;
pub const ARG_GLOBAL: u32 = 1;
pub const ARG_CONSTANT: u32 = 2;
pub const ARG_LOCAL: u32 = 3;
pub const ARG_IMAGE: u32 = 4;
pub const ARG_SAMPLER: u32 = 5;
/// A pipe: the argument is a pointer to a [`PipeDesc`]; `ArgDesc::info`
/// is the packet size in bytes.
pub const ARG_PIPE: u32 = 6;
/// A `queue_t`: the runtime fills it in with the launch's device queue
/// (a pointer to a [`QueueDesc`]); the host sets nothing.
pub const ARG_QUEUE: u32 = 7;

/// `KernelDesc::flags`: the kernel synchronises its work-group.
pub const FLAG_GROUP_SYNC: u32 = 1;
/// `KernelDesc::flags`: the kernel cannot tell how its range is cut into
/// groups (no synchronisation, no `__local` memory, no query of local ids,
/// sizes, group ids or counts), so the runtime may run consecutive groups
/// along x as one larger group: `group_id[0]` and
/// `enqueued_local_size[0]` then describe the merged group (global ids
/// come out right), and `local_size[0]` is its size.
pub const FLAG_GROUP_FREE: u32 = 2;
/// `KernelDesc::flags`: a synchronising kernel the regions do not express
/// whose only synchronisation is barriers. Its entry runs the one
/// work-item `Group::only_item` names when that is not null, and its
/// barriers call `Group::barrier`: the runtime runs such groups with a
/// thread per work-item (slow, but correct for every conforming kernel).
pub const FLAG_ITEM_THREADS: u32 = 4;

/// `KernelDesc::flags`: the entry runs one row of the group along x, the
/// one `Group::row` names, and the runtime calls it for each row (the
/// compiler flags kernels that neither synchronise nor are lowered in
/// regions; see `Group::row`).
pub const FLAG_ONE_ROW: u32 = 8;

/// `ArgDesc::image` of an `ARG_IMAGE` parameter: the image type (low
/// byte) and the access qualifier (`IMAGE_READ`/`IMAGE_WRITE` bits).
pub const IMAGE_1D: u32 = 1;
pub const IMAGE_1D_ARRAY: u32 = 2;
pub const IMAGE_1D_BUFFER: u32 = 3;
pub const IMAGE_2D: u32 = 4;
pub const IMAGE_2D_ARRAY: u32 = 5;
pub const IMAGE_3D: u32 = 6;
pub const IMAGE_2D_DEPTH: u32 = 7;
pub const IMAGE_2D_ARRAY_DEPTH: u32 = 8;
pub const IMAGE_READ: u32 = 0x100;
pub const IMAGE_WRITE: u32 = 0x200;

/// A sampler is its OpenCL C encoding, a 32-bit value (`CLK_*` bits).
pub const SAMPLER_NORMALIZED_COORDS: u32 = 1;
pub const SAMPLER_ADDRESS_MASK: u32 = 0xE;
pub const SAMPLER_ADDRESS_NONE: u32 = 0;
pub const SAMPLER_ADDRESS_CLAMP_TO_EDGE: u32 = 2;
pub const SAMPLER_ADDRESS_CLAMP: u32 = 4;
pub const SAMPLER_ADDRESS_REPEAT: u32 = 6;
pub const SAMPLER_ADDRESS_MIRRORED_REPEAT: u32 = 8;
pub const SAMPLER_FILTER_NEAREST: u32 = 0x10;
pub const SAMPLER_FILTER_LINEAR: u32 = 0x20;
/// The sampler of a sampler-less read (OpenCL 1.2 `read_image*(image,
/// int coord)`): unnormalized, no addressing, nearest.
pub const SAMPLER_NONE: u32 = SAMPLER_FILTER_NEAREST;

/// `ImageRead`/`ImageWrite` flags: the coordinates are floats (else
/// ints); the texel is `int4`/`uint4` (else `float4`).
pub const IMAGE_COORD_FLOAT: u32 = 1;
pub const IMAGE_TEXEL_INT: u32 = 2;
pub const IMAGE_TEXEL_UINT: u32 = 4;

/// `read_image*`: reads through `sampler` at the coordinates (ints or
/// floats per the flags; only the lanes the image type has are read, the
/// layer of an array after the spatial ones) and stores the texel (4
/// lanes of `float`, `int` or `uint`).
pub type ImageRead = unsafe extern "C" fn(image: *const ImageDesc, sampler: u32, flags: u32, coord: *const [u32; 4], texel: *mut [u32; 4]);
/// `write_image*`: writes the texel (4 lanes) at the integer coordinates.
pub type ImageWrite = unsafe extern "C" fn(image: *const ImageDesc, flags: u32, coord: *const [i32; 4], texel: *const [u32; 4]);

/// An image as kernels see it: an image argument is a pointer to this.
/// The runtime fills it in; the generated code reads the sizes and
/// format for the query functions, reads and writes texels of the
/// `inline_format`s itself where the sampler allows, and calls
/// `read`/`write` for everything else (the runtime's own functions, so
/// that neither the JIT nor a shared object compiled ahead of time needs
/// to resolve a symbol of the runtime's). No field changes while a kernel
/// runs, so the generated code may load them once.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ImageDesc {
    /// The first texel.
    pub data: *mut u8,
    pub width: u64,
    /// 1 for 1D images.
    pub height: u64,
    /// 1 but for 3D images.
    pub depth: u64,
    /// Layers of an array image, 1 otherwise.
    pub array_size: u64,
    /// Bytes from one row to the next.
    pub row_pitch: u64,
    /// Bytes from one 2D slice (or array layer) to the next.
    pub slice_pitch: u64,
    /// `CLK_R` …, as `get_image_channel_order` returns it.
    pub channel_order: u32,
    /// `CLK_UNORM_INT8` …, as `get_image_channel_data_type` returns it.
    pub channel_type: u32,
    /// Bytes of one texel.
    pub elem_size: u32,
    /// `IMAGE_2D` …
    pub image_type: u32,
    /// 1 + the format's index in `image::INLINE_FORMATS` when the
    /// generated code may read and write the texels itself (the common
    /// cases, without a call), 0 when every access goes through `read`
    /// and `write`.
    pub inline_format: u32,
    pub read: ImageRead,
    pub write: ImageWrite,
}

/// A pipe as kernels see it: a pipe argument is a pointer to this.
///
/// The pipe is a ring of `max_packets` slots of `packet_size` bytes; the
/// packets in it are the `count` slots from `head` on (wrapping). Packets a
/// kernel writes become visible to readers when the launch ends (OpenCL
/// 2.0's rule), so during a launch readers and writers only claim slots:
/// a reader takes index `r = read_claim++` while `r < count` and reads slot
/// `(head + r) % max_packets`, a writer takes `w = write_claim++` while `w
/// < max_packets - count` and writes slot `(head + count + w) %
/// max_packets` (reservations claim several at once, all or none, by a
/// compare-and-swap loop). The two ranges are disjoint, so no slot is read
/// and written in one launch and no work-item waits for another. When
/// the launch ends, the runtime folds the claims in: `head` moves past the
/// packets read, `count` loses them and gains those written, and the
/// claims go back to 0.
///
/// The generated code loads `data`, `packet_size`, `max_packets`, `head`
/// and `count` as invariant (they change only between launches) and
/// updates the claims atomically. The pointer is the last field, so the
/// offsets are the same for 32-bit code.
#[repr(C)]
#[derive(Debug)]
pub struct PipeDesc {
    /// Bytes of one packet.
    pub packet_size: u32,
    /// Slots in the ring (at least 1).
    pub max_packets: u32,
    /// The slot of the first unread packet (below `max_packets`).
    pub head: u32,
    /// Packets in the pipe when the launch started.
    pub count: u32,
    /// Packets claimed for reading in this launch (at most `count`).
    pub read_claim: AtomicU32,
    /// Packets claimed for writing in this launch (at most `max_packets -
    /// count`).
    pub write_claim: AtomicU32,
    /// `max_packets * packet_size` bytes, 128-byte aligned.
    pub data: *mut u8,
}

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
    /// Called by a barrier in a kernel flagged [`FLAG_ITEM_THREADS`] with
    /// `barrier_ctx`; null otherwise (a barrier then only orders memory).
    pub barrier: Option<unsafe extern "C" fn(*mut c_void)>,
    pub barrier_ctx: *mut c_void,
    /// For kernels flagged [`FLAG_ITEM_THREADS`]: the local id of the one
    /// work-item the entry runs, or null for all of them.
    pub only_item: *const [u64; 3],
    /// `group_id * enqueued_local_size + global_offset`: the global id of
    /// the group's first work-item, so that a work-item's global id is one
    /// addition ([`Group::place`] keeps it in step with `group_id`).
    pub global_base: [u64; 3],
    /// The y and z local ids of the row of work-items the entry of a
    /// kernel flagged [`FLAG_ONE_ROW`] runs: such an entry runs one row
    /// along x, and the runtime calls it for each row of the group (one
    /// loop less in the kernel's code, which LLVM then optimises faster).
    /// Other entries run every row and ignore it.
    pub row: [u64; 2],
    /// Bytes of `local_mem`: `to_local` and `get_fence` tell a generic
    /// pointer into it from one elsewhere.
    pub local_mem_size: u64,
    /// The stack of the thread running the entry, `[lowest, end)`: every
    /// private variable lives there, which is how `to_private` knows a
    /// generic pointer to one (`[0, 0)` where the bounds are unknown).
    pub stack: [u64; 2],
    /// The launch's device queue (`get_default_queue`, device-side
    /// enqueue and the event functions call through it).
    pub queue: *mut QueueDesc,
}

/// An `ndrange_t` as kernels build it (clang's layout, sizes as `size_t`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct NdRangeDesc {
    pub work_dim: u64,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// 0: the runtime chooses.
    pub local_size: [u64; 3],
}

/// `QueueDesc::enqueue(queue, entry, flags, block, block_size, ndrange,
/// num_locals, local_sizes, num_events, wait_list, ret_event)`: records a
/// child launch of `entry` (a block's work-group entry, whose argument 0
/// is the copied block object and arguments 1.. the `__local` pointers of
/// `local_sizes`; `flags` its `FLAG_*`, as a kernel's: with
/// [`FLAG_GROUP_SYNC`] alone the child runs groups of one work-item, one
/// where the range leaves the size open, and a larger local size is
/// `CLK_INVALID_NDRANGE`), or a marker where `entry` is null; returns
/// `CLK_SUCCESS` or an OpenCL error code.
pub type EnqueueFn = unsafe extern "C" fn(
    queue: *mut QueueDesc,
    entry: Option<Entry>,
    flags: u64,
    block: *const u8,
    block_size: u64,
    ndrange: *const NdRangeDesc,
    num_locals: u64,
    local_sizes: *const u64,
    num_events: u64,
    wait_list: *const *mut c_void,
    ret_event: *mut *mut c_void,
) -> i32;

/// `QueueDesc::event(queue, op, event, arg, out)`: one of the `EVENT_*`
/// operations on an event handle.
pub type EventFn = unsafe extern "C" fn(queue: *mut QueueDesc, op: u64, event: *mut c_void, arg: i64, out: *mut c_void) -> i64;

/// `EventFn` operations.
pub const EVENT_RETAIN: u64 = 0;
pub const EVENT_RELEASE: u64 = 1;
/// Returns a new user event handle.
pub const EVENT_CREATE_USER: u64 = 2;
/// Returns 1 for a live event handle, 0 otherwise.
pub const EVENT_IS_VALID: u64 = 3;
/// `arg` is the status (`CL_COMPLETE` = 0, or a negative error).
pub const EVENT_SET_STATUS: u64 = 4;
/// `out` points to two `ulong`s the runtime writes once the event is
/// complete (`CLK_PROFILING_COMMAND_EXEC_TIME`).
pub const EVENT_PROFILING: u64 = 5;

/// A device queue as kernels see it: a `queue_t` is a pointer to this.
#[repr(C)]
#[derive(Debug)]
pub struct QueueDesc {
    pub enqueue: EnqueueFn,
    pub event: EventFn,
}

impl Group {
    /// The template of a launch's groups: group 0, of the enqueued size,
    /// at `global_offset`; the worker running a group fills in its local
    /// memory pointer, barrier, work-item and stack, then places and sizes it.
    pub fn new(work_dim: u32, global_offset: [u64; 3], global_size: [u64; 3], local_size: [u64; 3], num_groups: [u64; 3], local_mem_size: u64, queue: *mut QueueDesc) -> Group {
        Group {
            work_dim,
            pad: 0,
            global_offset,
            global_size,
            local_size,
            enqueued_local_size: local_size,
            num_groups,
            group_id: [0; 3],
            local_mem: std::ptr::null_mut(),
            barrier: None,
            barrier_ctx: std::ptr::null_mut(),
            only_item: std::ptr::null(),
            global_base: global_offset,
            row: [0; 2],
            local_mem_size,
            stack: [0; 2],
            queue,
        }
    }

    /// Makes this the group `id` (along with its `global_base`).
    pub fn place(&mut self, id: [u64; 3]) {
        self.group_id = id;
        self.global_base = std::array::from_fn(|d| id[d] * self.enqueued_local_size[d] + self.global_offset[d]);
    }

    /// Runs the group through `entry`: a row at a time where `one_row`
    /// (the kernel is flagged [`FLAG_ONE_ROW`]), else at once.
    ///
    /// # Safety
    /// `entry` is the work-group entry of a kernel, `args` its argument
    /// pointers, and this group is filled in for it.
    pub unsafe fn run(&mut self, entry: Entry, args: *const *mut c_void, one_row: bool) {
        if !one_row {
            // SAFETY: as the caller promises.
            unsafe { entry(args, self) };
            return;
        }
        for z in 0..self.local_size[2] {
            for y in 0..self.local_size[1] {
                self.row = [y, z];
                // SAFETY: as the caller promises.
                unsafe { entry(args, self) };
            }
        }
    }
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
    /// `ARG_IMAGE`: the image type and access (`IMAGE_*`); `ARG_PIPE`: the
    /// packet size in bytes; 0 otherwise.
    pub info: u32,
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
        assert_eq!(std::mem::offset_of!(Group, barrier), 160);
        assert_eq!(std::mem::offset_of!(Group, barrier_ctx), 168);
        assert_eq!(std::mem::offset_of!(Group, only_item), 176);
        assert_eq!(std::mem::offset_of!(Group, global_base), 184);
        assert_eq!(std::mem::offset_of!(Group, row), 208);
        assert_eq!(std::mem::offset_of!(Group, local_mem_size), 224);
        assert_eq!(std::mem::offset_of!(Group, stack), 232);
        assert_eq!(std::mem::offset_of!(Group, queue), 248);
        assert_eq!(std::mem::offset_of!(QueueDesc, enqueue), 0);
        assert_eq!(std::mem::offset_of!(QueueDesc, event), 8);
        assert_eq!(std::mem::size_of::<NdRangeDesc>(), 80);
        assert_eq!(std::mem::offset_of!(NdRangeDesc, local_size), 56);
        assert_eq!(std::mem::size_of::<ArgDesc>(), 32);
        assert_eq!(std::mem::offset_of!(KernelDesc, local_mem), 40);
        assert_eq!(std::mem::size_of::<KernelDesc>(), 56);
        assert_eq!(std::mem::offset_of!(ArgDesc, info), 12);
        assert_eq!(std::mem::offset_of!(PipeDesc, packet_size), 0);
        assert_eq!(std::mem::offset_of!(PipeDesc, max_packets), 4);
        assert_eq!(std::mem::offset_of!(PipeDesc, head), 8);
        assert_eq!(std::mem::offset_of!(PipeDesc, count), 12);
        assert_eq!(std::mem::offset_of!(PipeDesc, read_claim), 16);
        assert_eq!(std::mem::offset_of!(PipeDesc, write_claim), 20);
        assert_eq!(std::mem::offset_of!(PipeDesc, data), 24);
        assert_eq!(std::mem::size_of::<PipeDesc>(), 32);
        assert_eq!(std::mem::offset_of!(ImageDesc, width), 8);
        assert_eq!(std::mem::offset_of!(ImageDesc, height), 16);
        assert_eq!(std::mem::offset_of!(ImageDesc, depth), 24);
        assert_eq!(std::mem::offset_of!(ImageDesc, array_size), 32);
        assert_eq!(std::mem::offset_of!(ImageDesc, row_pitch), 40);
        assert_eq!(std::mem::offset_of!(ImageDesc, slice_pitch), 48);
        assert_eq!(std::mem::offset_of!(ImageDesc, channel_order), 56);
        assert_eq!(std::mem::offset_of!(ImageDesc, channel_type), 60);
        assert_eq!(std::mem::offset_of!(ImageDesc, elem_size), 64);
        assert_eq!(std::mem::offset_of!(ImageDesc, image_type), 68);
        assert_eq!(std::mem::offset_of!(ImageDesc, inline_format), 72);
        assert_eq!(std::mem::offset_of!(ImageDesc, read), 80);
        assert_eq!(std::mem::offset_of!(ImageDesc, write), 88);
        assert_eq!(std::mem::size_of::<ImageDesc>(), 96);
    }

    #[test]
    fn placing_a_group_sets_its_first_global_id() {
        let mut g = Group::new(3, [5, 0, 7], [100, 30, 4], [16, 4, 2], [7, 8, 2], 0, std::ptr::null_mut());
        g.place([6, 3, 1]);
        assert_eq!(g.group_id, [6, 3, 1]);
        assert_eq!(g.global_base, [5 + 6 * 16, 3 * 4, 7 + 2]);
        // A merged group (`FLAG_GROUP_FREE`): three groups wide.
        g.enqueued_local_size[0] = 48;
        g.place([2, 0, 0]);
        assert_eq!(g.global_base[0], 5 + 2 * 48);
    }
}
