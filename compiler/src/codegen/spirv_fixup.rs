//! Repairs to the SPIR-V binaries LLVM 22's back end writes, where its
//! output is invalid for OpenCL consumers and no IR shape avoids it.
//!
//! - **Null events.** `async_work_group_copy(dst, src, n, 0)`: clc's IR
//!   carries events as pointers (inkwell has no target types), and the
//!   back end writes the null event as an `OpConstantNull` of a pointer
//!   type. OpGroupAsyncCopy's Event must be an OpTypeEvent (Intel's CPU
//!   runtime refuses the module). Passing clang's `target("spirv.Event")
//!   zeroinitializer` instead hits back-end bugs of its own (a malformed
//!   `OpConstantNull` when one function uses it twice; a crash at -O0), so
//!   the binary is repaired: such an operand becomes an `OpConstantNull`
//!   of the module's event type, added after that type if there is none.
//!
//! The input is a SPIR-V module as LLVM wrote it; anything else (too
//! short, a wrong magic number, an instruction running past the end) is
//! returned unchanged.

/// `OpTypeEvent`, `OpConstantNull`, `OpGroupAsyncCopy`.
const OP_TYPE_EVENT: u32 = 34;
const OP_CONSTANT_NULL: u32 = 46;
const OP_GROUP_ASYNC_COPY: u32 = 259;
const MAGIC: u32 = 0x0723_0203;
/// Words before the first instruction.
const HEADER: usize = 5;
/// OpGroupAsyncCopy's Event operand: after the opcode word, result type,
/// result, execution scope, destination, source, count and stride.
const EVENT_OPERAND: usize = 8;

/// The module with every null event of OpGroupAsyncCopy typed as an event.
pub fn fix(binary: Vec<u8>) -> Vec<u8> {
    let Some(mut words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let mut event_type = None;
    let mut event_null = None;
    let mut pointer_nulls = Vec::new();
    let mut copies = Vec::new();
    for &(at, op, len) in &instructions {
        match op {
            OP_TYPE_EVENT if len >= 2 => event_type = Some((at, words[at + 1])),
            OP_CONSTANT_NULL if len >= 3 => pointer_nulls.push((words[at + 1], words[at + 2])),
            OP_GROUP_ASYNC_COPY if len > EVENT_OPERAND => copies.push(at),
            _ => {}
        }
    }
    let Some((type_at, event_ty)) = event_type else { return binary };
    // A null of the event type already there, and the nulls of others.
    if let Some(&(_, id)) = pointer_nulls.iter().find(|(ty, _)| *ty == event_ty) {
        event_null = Some(id);
    }
    let other_nulls: Vec<u32> = pointer_nulls.iter().filter(|(ty, _)| *ty != event_ty).map(|&(_, id)| id).collect();
    let to_fix: Vec<usize> = copies.into_iter().filter(|&at| other_nulls.contains(&words[at + EVENT_OPERAND])).collect();
    if to_fix.is_empty() {
        return binary;
    }
    let mut insert = None;
    let null = match event_null {
        Some(id) => id,
        None => {
            // A fresh id: the header's bound, which grows by one.
            let id = words[3];
            words[3] += 1;
            insert = Some((type_at + (words[type_at] >> 16) as usize, [(3 << 16) | OP_CONSTANT_NULL, event_ty, id]));
            id
        }
    };
    for at in to_fix {
        words[at + EVENT_OPERAND] = null;
    }
    if let Some((at, instruction)) = insert {
        words.splice(at..at, instruction);
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The binary's words (little-endian, as LLVM writes them), if it is a
/// SPIR-V module.
fn words_of(binary: &[u8]) -> Option<Vec<u32>> {
    if binary.len() % 4 != 0 || binary.len() < HEADER * 4 {
        return None;
    }
    let words: Vec<u32> = binary.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    (words[0] == MAGIC).then_some(words)
}

/// Each instruction's first word, opcode and length in words, or `None`
/// where an instruction's length is zero or runs past the end.
fn instructions(words: &[u32]) -> Option<Vec<(usize, u32, usize)>> {
    let mut out = Vec::new();
    let mut at = HEADER;
    while at < words.len() {
        let len = (words[at] >> 16) as usize;
        if len == 0 || at + len > words.len() {
            return None;
        }
        out.push((at, words[at] & 0xffff, len));
        at += len;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A module skeleton: header (bound 20), an event type (id 5), a
    /// pointer type's null (id 7 of type 6), and an async copy (result 9)
    /// whose event is the pointer null.
    fn module(extra: &[u32]) -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        w.extend([(2 << 16) | OP_TYPE_EVENT, 5]);
        w.extend(extra);
        w.extend([(3 << 16) | OP_CONSTANT_NULL, 6, 7]);
        w.extend([(9 << 16) | OP_GROUP_ASYNC_COPY, 5, 9, 2, 10, 11, 12, 13, 7]);
        w
    }

    #[test]
    fn a_pointer_null_event_becomes_a_null_event() {
        let fixed = words_of(&fix(bytes(&module(&[])))).unwrap();
        let mut want = module(&[(3 << 16) | OP_CONSTANT_NULL, 5, 20]);
        want[3] = 21;
        *want.last_mut().unwrap() = 20;
        assert_eq!(fixed, want);
    }

    #[test]
    fn an_existing_null_event_is_reused() {
        let with = module(&[(3 << 16) | OP_CONSTANT_NULL, 5, 8]);
        let fixed = words_of(&fix(bytes(&with))).unwrap();
        let mut want = with.clone();
        *want.last_mut().unwrap() = 8;
        assert_eq!(fixed, want);
    }

    #[test]
    fn other_modules_are_left_alone() {
        // A real event operand (id 4, not a null).
        let mut real = module(&[]);
        *real.last_mut().unwrap() = 4;
        assert_eq!(fix(bytes(&real)), bytes(&real));
        // Not SPIR-V, truncated, or an instruction past the end.
        assert_eq!(fix(b"\x7fELF....".to_vec()), b"\x7fELF....".to_vec());
        let short = bytes(&module(&[])[..12]);
        assert_eq!(fix(short.clone()), short);
        let mut long = module(&[]);
        long.push(9 << 16);
        assert_eq!(fix(bytes(&long)), bytes(&long));
    }
}
