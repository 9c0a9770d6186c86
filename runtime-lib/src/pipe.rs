//! Pipes (OpenCL C 2.0 §6.13.16) as kernels on the CPU use them: a ring of
//! packets behind an [`abi::PipeDesc`], which kernels claim slots of
//! during a launch and the launch folds in when it ends (see the
//! descriptor's documentation for the protocol).
//!
//! OpenCL gives the host no access to a pipe's packets; this runtime does
//! (`push`, `read`, `pop`), so that tests and `clc run` can fill a pipe
//! before a launch and look into it after. A pipe is used by one launch at
//! a time: a launch takes it when it starts (a second launch, or the host,
//! is refused until the first has finished) and gives it back when it
//! has folded its claims in.

use crate::abi::PipeDesc;
use crate::{Block, Error, Pod, ZERO_BLOCK};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A pipe: `max_packets` packets of `packet_size` bytes, first in first
/// out, passed to kernels with [`crate::Arg::Pipe`].
pub struct Pipe {
    pub(crate) data: Arc<PipeStorage>,
}

pub(crate) struct PipeStorage {
    /// The descriptor kernels receive a pointer to (`Box::into_raw`,
    /// freed on drop): kernels update its claims while a launch runs.
    desc: *mut PipeDesc,
    /// The slots (`Box::into_raw`), freed on drop; reached through
    /// `desc.data`.
    bytes: *mut [Block],
    /// Taken by a launch from its start until it has folded its claims in.
    busy: AtomicBool,
}

// SAFETY: kernels reach the descriptor and the slots only while a launch
// holds the pipe (`busy`), the host only through `Pipe`'s methods, which
// refuse while it does; the claims are atomics.
unsafe impl Send for PipeStorage {}
unsafe impl Sync for PipeStorage {}

impl Drop for PipeStorage {
    fn drop(&mut self) {
        // SAFETY: both made by `Box::into_raw` in `Pipe::new`, freed once.
        unsafe {
            drop(Box::from_raw(self.desc));
            drop(Box::from_raw(self.bytes));
        }
    }
}

impl PipeStorage {
    /// The address kernels receive.
    pub(crate) fn desc_ptr(&self) -> *const PipeDesc {
        self.desc
    }

    pub(crate) fn packet_size(&self) -> usize {
        // SAFETY: the descriptor lives as long as the storage;
        // `packet_size` never changes.
        unsafe { (*self.desc).packet_size as usize }
    }

    /// Takes the pipe for a launch; false if another launch holds it.
    pub(crate) fn take(&self) -> bool {
        self.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_ok()
    }

    /// Gives the pipe back without folding (a launch that never ran).
    pub(crate) fn give_back(&self) {
        self.busy.store(false, Ordering::Release);
    }

    /// After a launch that held the pipe: the packets kernels read leave
    /// it, those they wrote join it, the claims start again from 0, and the
    /// pipe is free.
    pub(crate) fn finish_launch(&self) {
        // SAFETY: the launch has ended (its groups have all returned), so
        // no kernel touches the descriptor; the host is kept out by `busy`.
        let d = unsafe { &mut *self.desc };
        let reads = d.read_claim.swap(0, Ordering::Acquire).min(d.count);
        let writes = d.write_claim.swap(0, Ordering::Acquire).min(d.max_packets - d.count);
        d.head = ((d.head as u64 + reads as u64) % d.max_packets as u64) as u32;
        d.count = d.count - reads + writes;
        self.busy.store(false, Ordering::Release);
    }
}

impl Pipe {
    /// An empty pipe of `max_packets` packets of `packet_size` bytes (both
    /// at least 1, below 2^32, and the whole below 2^40 bytes).
    pub fn new(packet_size: usize, max_packets: usize) -> Result<Pipe, Error> {
        if packet_size == 0 || max_packets == 0 || packet_size > u32::MAX as usize || max_packets > u32::MAX as usize {
            return Err(Error::Pipe(format!("a pipe of {max_packets} packets of {packet_size} bytes: both must be 1 to {}", u32::MAX)));
        }
        let len = packet_size.checked_mul(max_packets).filter(|&n| n < 1 << 40).ok_or_else(|| Error::Pipe(format!("a pipe of {max_packets} packets of {packet_size} bytes is too large")))?;
        let bytes = Box::into_raw(vec![ZERO_BLOCK; len.div_ceil(128).max(1)].into_boxed_slice());
        let desc = Box::into_raw(Box::new(PipeDesc {
            packet_size: packet_size as u32,
            max_packets: max_packets as u32,
            head: 0,
            count: 0,
            read_claim: 0.into(),
            write_claim: 0.into(),
            data: bytes.cast(),
        }));
        Ok(Pipe { data: Arc::new(PipeStorage { desc, bytes, busy: AtomicBool::new(false) }) })
    }

    pub fn packet_size(&self) -> usize {
        self.data.packet_size()
    }

    pub fn max_packets(&self) -> usize {
        // SAFETY: as for `packet_size`.
        unsafe { (*self.data.desc).max_packets as usize }
    }

    /// The packets in the pipe, as the last launch using it left them.
    pub fn len(&self) -> Result<usize, Error> {
        Ok(self.desc()?.count as usize)
    }

    pub fn is_empty(&self) -> Result<bool, Error> {
        Ok(self.len()? == 0)
    }

    /// The descriptor, for the host while no launch holds the pipe.
    fn desc(&self) -> Result<&PipeDesc, Error> {
        if self.data.busy.load(Ordering::Acquire) {
            return Err(Error::Pipe("the pipe is in use by a launch that has not finished".into()));
        }
        // SAFETY: no launch holds the pipe; a launch taking it needs
        // `&Pipe` only while setting arguments, which does not touch the
        // descriptor.
        Ok(unsafe { &*self.data.desc })
    }

    /// Slot `i`'s bytes.
    fn slot(&self, i: u32) -> *mut u8 {
        // SAFETY: `i < max_packets`, so the slot lies in the allocation.
        unsafe { (*self.data.desc).data.add(i as usize * self.packet_size()) }
    }

    /// Appends packets (`bytes` holds whole packets, in order); an error,
    /// with nothing appended, if they do not fit.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let size = self.packet_size();
        let d = self.desc()?;
        if !bytes.len().is_multiple_of(size) {
            return Err(Error::Pipe(format!("{} bytes are not whole packets of {size} bytes", bytes.len())));
        }
        let n = bytes.len() / size;
        let (head, count, max) = (d.head, d.count, d.max_packets);
        if n > (max - count) as usize {
            return Err(Error::Pipe(format!("{n} packets do not fit: the pipe holds {count} of at most {max}")));
        }
        for (k, p) in bytes.chunks_exact(size).enumerate() {
            let slot = ((head as u64 + count as u64 + k as u64) % max as u64) as u32;
            // SAFETY: one packet into its slot; no launch holds the pipe.
            unsafe { std::ptr::copy_nonoverlapping(p.as_ptr(), self.slot(slot), size) };
        }
        // SAFETY: as in `desc`; `&mut self` keeps other host access out.
        unsafe { (*self.data.desc).count = count + n as u32 };
        Ok(())
    }

    /// Appends `packets` (`T` must be the packet's size).
    pub fn push<T: Pod>(&mut self, packets: &[T]) -> Result<(), Error> {
        self.check_type::<T>()?;
        self.push_bytes(crate::as_bytes(packets))
    }

    /// The packets in the pipe, first to last, their bytes one after
    /// another.
    pub fn read_bytes(&self) -> Result<Vec<u8>, Error> {
        let d = self.desc()?;
        let size = self.packet_size();
        let mut out = Vec::with_capacity(d.count as usize * size);
        for k in 0..d.count {
            let slot = ((d.head as u64 + k as u64) % d.max_packets as u64) as u32;
            // SAFETY: a whole slot; no launch holds the pipe.
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(self.slot(slot), size) });
        }
        Ok(out)
    }

    /// The packets in the pipe, first to last (`T` must be the packet's
    /// size).
    pub fn read<T: Pod>(&self) -> Result<Vec<T>, Error> {
        self.check_type::<T>()?;
        let bytes = self.read_bytes()?;
        let n = bytes.len() / std::mem::size_of::<T>();
        let mut out: Vec<T> = Vec::with_capacity(n);
        // SAFETY: `n` whole `T`s; `Pod` makes every bit pattern valid.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
            out.set_len(n);
        }
        Ok(out)
    }

    /// Removes the first `n` packets (fewer if the pipe holds fewer) and
    /// returns how many it removed.
    pub fn pop(&mut self, n: usize) -> Result<usize, Error> {
        let d = self.desc()?;
        let k = n.min(d.count as usize) as u32;
        let (head, count, max) = (d.head, d.count, d.max_packets);
        // SAFETY: as in `push_bytes`.
        unsafe {
            (*self.data.desc).head = ((head as u64 + k as u64) % max as u64) as u32;
            (*self.data.desc).count = count - k;
        }
        Ok(k as usize)
    }

    fn check_type<T>(&self) -> Result<(), Error> {
        let t = std::mem::size_of::<T>();
        if t != self.packet_size() {
            return Err(Error::Pipe(format!("packets of {} bytes read or written as a type of {t}", self.packet_size())));
        }
        Ok(())
    }
}

impl std::fmt::Debug for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipe").field("packet_size", &self.packet_size()).field("max_packets", &self.max_packets()).field("len", &self.len().ok()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_come_out_in_order_around_the_ring() {
        let mut p = Pipe::new(4, 3).unwrap();
        p.push(&[1i32, 2]).unwrap();
        assert_eq!(p.pop(1).unwrap(), 1);
        p.push(&[3i32, 4]).unwrap();
        assert_eq!(p.read::<i32>().unwrap(), [2, 3, 4]);
        assert!(p.push(&[5i32]).is_err(), "full");
        assert!(p.read::<i64>().is_err(), "wrong packet type");
        assert_eq!(p.pop(9).unwrap(), 3);
        assert!(p.is_empty().unwrap());
        assert!(Pipe::new(0, 4).is_err());
        assert!(Pipe::new(4, 0).is_err());
        assert_eq!(p.data.desc_ptr() as usize % 8, 0);
        // SAFETY: reading the pointer the kernels get.
        assert_eq!(unsafe { (*p.data.desc_ptr()).data } as usize % 128, 0);
    }

    #[test]
    fn a_launch_folds_its_claims_in() {
        let mut p = Pipe::new(4, 4).unwrap();
        p.push(&[10i32, 11, 12]).unwrap();
        assert!(p.data.take());
        assert!(!p.data.take(), "one launch at a time");
        assert!(p.read::<i32>().is_err(), "the host waits for the launch");
        // SAFETY: what a kernel does: two reads and one write (slot
        // (head + count + 0) % 4 = 3).
        unsafe {
            let d = &*p.data.desc_ptr();
            d.read_claim.fetch_add(2, Ordering::Relaxed);
            d.write_claim.fetch_add(1, Ordering::Relaxed);
            std::ptr::copy_nonoverlapping(13i32.to_ne_bytes().as_ptr(), d.data.add(12), 4);
        }
        p.data.finish_launch();
        assert_eq!(p.read::<i32>().unwrap(), [12, 13]);
        p.push(&[14i32, 15]).unwrap();
        assert_eq!(p.read::<i32>().unwrap(), [12, 13, 14, 15]);
    }
}
