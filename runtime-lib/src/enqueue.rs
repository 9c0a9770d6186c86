//! Device-side enqueue (OpenCL C 2.0 §6.13.17): the device queue a launch
//! gives its kernels, the child launches they record, and event handles.
//!
//! OpenCL lets a child run after its parent has finished whatever the
//! enqueue flags say, so the queue only records children; when the parent
//! launch has returned, the launcher runs them in the order they were
//! enqueued, each once every event of its wait list is complete (children
//! may enqueue more children). A child that waits for a user event no one
//! completes is an error of the launch instead of a hang. Event handles
//! live as long as the queue (a launch and its children): releasing one
//! makes it invalid for `is_valid_event` but never frees memory a kernel
//! could still name.

use crate::abi::{self, Entry, NdRangeDesc, QueueDesc};
use crate::{Error, LOCAL_MEM_SIZE, MAX_GLOBAL_ID, MAX_GROUPS, MAX_WORK_GROUP_SIZE};
use std::any::Any;
use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// `CLK_SUCCESS` and the error codes `enqueue_kernel` returns.
pub const CLK_SUCCESS: i32 = 0;
pub const CLK_OUT_OF_RESOURCES: i32 = -5;
pub const CLK_INVALID_ARG_SIZE: i32 = -51;
pub const CLK_INVALID_EVENT_WAIT_LIST: i32 = -57;
pub const CLK_INVALID_NDRANGE: i32 = -160;

/// An event's status: submitted (1), complete (0) or an error (< 0).
const SUBMITTED: i64 = 1;
const COMPLETE: i64 = 0;

/// An event handle (`clk_event_t` is a pointer to one).
struct EventObj {
    /// References kernels hold; 0: released (no longer valid).
    refs: AtomicI64,
    status: AtomicI64,
    /// Nanoseconds since the queue's start: the command's start and end.
    start: AtomicU64,
    end: AtomicU64,
    /// Where `capture_event_profiling_info` asked the times to go.
    profiling: Mutex<Vec<usize>>,
}

/// A recorded child launch (or a marker, without `entry`).
struct Child {
    entry: Option<Entry>,
    /// The entry's `FLAG_*` (a block whose synchronisation the regions do
    /// not express runs with [`abi::FLAG_ITEM_THREADS`], or in groups of
    /// one work-item with [`abi::FLAG_GROUP_SYNC`] alone).
    flags: u64,
    /// The block object's bytes, 128-byte aligned.
    block: Box<[crate::Block]>,
    range: NdRangeDesc,
    locals: Vec<u64>,
    waits: Vec<*const EventObj>,
    event: *const EventObj,
}

#[derive(Default)]
struct State {
    pending: Vec<Child>,
    /// Every event of the queue, alive until the queue drops.
    events: Vec<Box<EventObj>>,
}

/// A launch's device queue; kernels see its [`QueueDesc`].
#[repr(C)]
pub(crate) struct DeviceQueue {
    desc: QueueDesc,
    state: Mutex<State>,
    start: Instant,
    /// The code the children run (the parent's program).
    pub(crate) owner: Arc<dyn Any + Send + Sync>,
}

// SAFETY: the raw pointers are event handles owned by `state` (boxes that
// live as long as the queue) and are only dereferenced under its rules.
unsafe impl Send for DeviceQueue {}
unsafe impl Sync for DeviceQueue {}

impl DeviceQueue {
    pub(crate) fn new(owner: Arc<dyn Any + Send + Sync>) -> Arc<DeviceQueue> {
        Arc::new(DeviceQueue { desc: QueueDesc { enqueue, event }, state: Mutex::new(State::default()), start: Instant::now(), owner })
    }

    /// The `queue_t` kernels see.
    pub(crate) fn desc_ptr(&self) -> *mut QueueDesc {
        (&self.desc as *const QueueDesc).cast_mut()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64
    }

    fn new_event(&self, st: &mut State, refs: i64, status: i64) -> *const EventObj {
        let e = Box::new(EventObj { refs: AtomicI64::new(refs), status: AtomicI64::new(status), start: AtomicU64::new(0), end: AtomicU64::new(0), profiling: Mutex::new(Vec::new()) });
        let p: *const EventObj = &*e;
        st.events.push(e);
        p
    }

    fn is_event(st: &State, e: *const c_void) -> bool {
        st.events.iter().any(|x| std::ptr::eq(&**x, e.cast()))
    }

    fn complete(&self, e: &EventObj, status: i64) {
        e.status.store(status, Ordering::Release);
        let (start, end) = (e.start.load(Ordering::Relaxed), e.end.load(Ordering::Relaxed));
        for p in e.profiling.lock().unwrap_or_else(|x| x.into_inner()).drain(..) {
            // SAFETY: the kernel gave a pointer to two ulongs of global
            // memory, which outlives the launch's children.
            unsafe { std::ptr::write_unaligned(p as *mut [u64; 2], [end - start, end - start]) };
        }
    }

    /// Runs the recorded children until none is left: each, in enqueue
    /// order, once its wait list is complete. `run` launches one child.
    pub(crate) fn drain(self: &Arc<Self>, run: &dyn Fn(&Arc<DeviceQueue>, Entry, u64, *const u8, &NdRangeDesc, &[u64])) -> Result<(), Error> {
        loop {
            let child = {
                let mut st = self.lock();
                if st.pending.is_empty() {
                    return Ok(());
                }
                // SAFETY: wait-list events are the queue's own (checked at
                // enqueue), alive as long as the queue.
                let ready = st.pending.iter().position(|c| c.waits.iter().all(|&w| unsafe { &*w }.status.load(Ordering::Acquire) <= COMPLETE));
                match ready {
                    Some(i) => st.pending.remove(i),
                    None => return Err(Error::Enqueue(format!("{} device-side enqueued command(s) wait for events that never complete (a user event not set complete?)", st.pending.len()))),
                }
            };
            // SAFETY: as above.
            let event = unsafe { &*child.event };
            let failed = child.waits.iter().map(|&w| unsafe { &*w }.status.load(Ordering::Acquire)).find(|&s| s < COMPLETE);
            event.start.store(self.now(), Ordering::Relaxed);
            if let (None, Some(entry)) = (failed, child.entry) {
                run(self, entry, child.flags, child.block.as_ptr().cast(), &child.range, &child.locals);
            }
            event.end.store(self.now(), Ordering::Relaxed);
            self.complete(event, failed.unwrap_or(COMPLETE));
        }
    }
}

/// The local size a child launch uses: the range's, or one chosen (as the
/// host's launches choose) where the range's is 0.
pub(crate) fn child_local_size(r: &NdRangeDesc) -> [u64; 3] {
    let dims = r.work_dim as usize;
    if r.local_size[..dims].iter().all(|&l| l == 0) {
        return [r.global_size[0].clamp(1, 256), 1, 1];
    }
    std::array::from_fn(|d| if d < dims { r.local_size[d] } else { 1 })
}

/// Does an entry with launch flags `flags` run only groups of one
/// work-item? It synchronises its group in a shape the compiler's regions
/// do not express, with more than barriers (a work-group function, an
/// async copy), so not with a thread per work-item either: as such a
/// kernel (see `Kernel::local_size`).
fn one_item_groups(flags: u64) -> bool {
    flags & u64::from(abi::FLAG_GROUP_SYNC) != 0 && flags & u64::from(abi::FLAG_ITEM_THREADS) == 0
}

/// Where the range leaves the local size to the runtime: groups of one
/// work-item, for an entry that runs only those.
fn choose_one_item(r: &mut NdRangeDesc) {
    let dims = (r.work_dim as usize).min(3);
    if r.local_size[..dims].iter().all(|&l| l == 0) {
        r.local_size[..dims].fill(1);
    }
}

/// Is the range one a child launch can run?
fn valid_range(r: &NdRangeDesc) -> bool {
    let dims = r.work_dim as usize;
    if !(1..=3).contains(&dims) {
        return false;
    }
    let local = child_local_size(r);
    if local.contains(&0) || local.iter().product::<u64>() > MAX_WORK_GROUP_SIZE as u64 {
        return false;
    }
    (0..dims).all(|d| {
        let (g, o) = (r.global_size[d], r.global_offset[d]);
        g != 0 && o.checked_add(g).is_some_and(|e| e <= MAX_GLOBAL_ID as u64) && g.div_ceil(local[d]) <= MAX_GROUPS as u64
    })
}

/// `QueueDesc::enqueue`.
unsafe extern "C" fn enqueue(queue: *mut QueueDesc, entry: Option<Entry>, flags: u64, block: *const u8, block_size: u64, range: *const NdRangeDesc, num_locals: u64, local_sizes: *const u64, num_events: u64, wait_list: *const *mut c_void, ret_event: *mut *mut c_void) -> i32 {
    // SAFETY: kernels only have queues the runtime gave them, each the
    // first field of a live `DeviceQueue`.
    let q = unsafe { &*queue.cast::<DeviceQueue>() };
    let range = if entry.is_some() {
        // SAFETY: the generated code passes its `ndrange_t`.
        let mut r = unsafe { *range };
        let one_item = one_item_groups(flags);
        if one_item {
            choose_one_item(&mut r);
        }
        // A group of several work-items an entry of groups of one cannot
        // run: the range is not one the block can be enqueued over.
        if !valid_range(&r) || (one_item && child_local_size(&r).iter().product::<u64>() > 1) {
            return CLK_INVALID_NDRANGE;
        }
        r
    } else {
        NdRangeDesc::default()
    };
    // SAFETY: the generated code passes `num_locals` sizes.
    let locals = if num_locals == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(local_sizes, num_locals as usize) }.to_vec() };
    if locals.contains(&0) {
        return CLK_INVALID_ARG_SIZE;
    }
    if locals.iter().map(|l| l.next_multiple_of(128)).sum::<u64>() > LOCAL_MEM_SIZE as u64 {
        return CLK_OUT_OF_RESOURCES;
    }
    if (num_events > 0) == wait_list.is_null() {
        return CLK_INVALID_EVENT_WAIT_LIST;
    }
    let mut st = q.lock();
    let mut waits = Vec::with_capacity(num_events as usize);
    for i in 0..num_events as usize {
        // SAFETY: the kernel's wait list holds `num_events` handles.
        let w = unsafe { *wait_list.add(i) };
        if !DeviceQueue::is_event(&st, w) {
            return CLK_INVALID_EVENT_WAIT_LIST;
        }
        waits.push(w as *const EventObj);
    }
    let mut bytes = vec![crate::ZERO_BLOCK; (block_size as usize).div_ceil(128).max(1)].into_boxed_slice();
    if block_size > 0 {
        // SAFETY: the block object has `block_size` bytes.
        unsafe { std::ptr::copy_nonoverlapping(block, bytes.as_mut_ptr().cast::<u8>(), block_size as usize) };
    }
    let refs = if ret_event.is_null() { 0 } else { 1 };
    let event = q.new_event(&mut st, refs, SUBMITTED);
    if !ret_event.is_null() {
        // SAFETY: the kernel's `clk_event_t *`.
        unsafe { *ret_event = event.cast_mut().cast() };
    }
    st.pending.push(Child { entry, flags, block: bytes, range, locals, waits, event });
    CLK_SUCCESS
}

/// `QueueDesc::event`.
unsafe extern "C" fn event(queue: *mut QueueDesc, op: u64, e: *mut c_void, arg: i64, out: *mut c_void) -> i64 {
    // SAFETY: as in `enqueue`.
    let q = unsafe { &*queue.cast::<DeviceQueue>() };
    let mut st = q.lock();
    if op == abi::EVENT_CREATE_USER {
        return q.new_event(&mut st, 1, SUBMITTED) as i64;
    }
    if !DeviceQueue::is_event(&st, e) {
        return 0;
    }
    // SAFETY: one of the queue's events.
    let ev = unsafe { &*(e as *const EventObj) };
    match op {
        abi::EVENT_RETAIN => {
            ev.refs.fetch_add(1, Ordering::Relaxed);
        }
        abi::EVENT_RELEASE => {
            ev.refs.fetch_sub(1, Ordering::Relaxed);
        }
        abi::EVENT_IS_VALID => return i64::from(ev.refs.load(Ordering::Relaxed) > 0),
        abi::EVENT_SET_STATUS => {
            drop(st);
            let now = q.now();
            ev.start.store(now, Ordering::Relaxed);
            ev.end.store(now, Ordering::Relaxed);
            q.complete(ev, arg.min(COMPLETE));
        }
        abi::EVENT_PROFILING if !out.is_null() => {
            if ev.status.load(Ordering::Acquire) <= COMPLETE {
                let t = ev.end.load(Ordering::Relaxed) - ev.start.load(Ordering::Relaxed);
                // SAFETY: the kernel's pointer to two ulongs.
                unsafe { std::ptr::write_unaligned(out as *mut [u64; 2], [t, t]) };
            } else {
                ev.profiling.lock().unwrap_or_else(|x| x.into_inner()).push(out as usize);
            }
        }
        _ => {}
    }
    0
}
