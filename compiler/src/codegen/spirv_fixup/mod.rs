//! Repairs to the SPIR-V binaries LLVM 22's back end writes, where its
//! output is invalid for OpenCL consumers, or breaks one, and no IR shape
//! avoids it.
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
//! - **Arrays of events.** LLVM 22 types the variable of `event_t
//!   evs[N]` as one OpTypeEvent, whatever the IR's array type: the other
//!   events are stored past it. The lowering names such variables
//!   `<name>__clc_events_<N>`; each such variable of a pointer to an event
//!   becomes a variable of an array of N events, its old id a bitcast of it
//!   after the function's variables (its uses unchanged), and the name
//!   loses its mark.
//!
//! - **Half pointers.** A kernel that only passes `half` data through
//!   pointers (`vload_half`, `vstore_half`: OpenCL C 1.0 core, no
//!   cl_khr_fp16) needs the Float16Buffer capability; LLVM declares
//!   Float16 too, which OpenCL environments without cl_khr_fp16 refuse.
//!   Where the 16-bit float type is the pointee of pointer types and
//!   nothing else, the Float16 capability is dropped (Float16Buffer
//!   declared).
//!
//! - **printf formats.** OpenCL.std's printf wants its format as a
//!   pointer to 8-bit integers; LLVM passes the string constant's
//!   variable, a pointer to an array of them (clang-22's output fails
//!   `spirv-val` the same way). The format is bitcast to a pointer to its
//!   first character (the pointer type added if the module has none).
//!
//! - **A spurious printf extension.** LLVM 22's printf check looks the
//!   format's type up in the wrong function's registers (the last one the
//!   back end compiled), and fails ("SPV_EXT_relaxed_printf_string_
//!   address_space is required") on modules whose formats are all
//!   constants: a kernel with two parameters that calls printf and a
//!   function defined after it, at -O0. `emit` lets the back end use the
//!   extension; it goes again here where every format is a pointer into
//!   UniformConstant (clc puts every format there).
//!
//! - **Samplers shared by functions.** A program-scope `sampler_t` is one
//!   module-level OpConstantSampler; Intel's CPU runtime fails to link a
//!   module where two functions use the same one ("Never resolved value
//!   found in function"; corpus 058, clang-22's SPIR-V too). Each further
//!   function using it gets a copy of its own (OpSampledImage's sampler and
//!   call arguments rewritten).
//!
//! - **Reservation ids.** clc's IR carries `reserve_id_t` as a pointer
//!   (inkwell has no target types; see `lower/pipes.rs`), and the back end
//!   gives OpReserveReadPipePackets and its kin that pointer type as
//!   result type. Each reservation, and each OpPhi, OpSelect or
//!   OpCopyObject of one, is made an OpTypeReserveId (the type added
//!   before the first function if the module has none). Reservations in
//!   memory (arrays of `reserve_id_t`, their addresses): the objects a
//!   reservation is stored into or loaded from (found through casts and
//!   access chains) hold reservations only, so every load from them is
//!   one; each load and store of one goes through a bitcast to a pointer
//!   to OpTypeReserveId, and a null or undefined pointer stored there or
//!   merged with reservations becomes the reservation type's
//!   (`CLK_NULL_RESERVE_ID`).
//!
//! - **Pipes in SPIR-V 1.0** ([`as_version_1_0`], applied by `emit` only
//!   where it had the module written as 1.1). LLVM 22 refuses the Pipes
//!   capability below SPIR-V 1.1 (clang-22 too), though SPIR-V 1.0 has
//!   it; what the back end then writes is 1.0's but for MaxByteOffset
//!   decorations (1.1), which go: they are hints.
//!
//! - **Channel orders.** LLVM 22 has no OpImageQueryOrder: a call of
//!   `get_image_channel_order` stays a call of an imported function
//!   (clang-22's too), which no OpenCL runtime provides. Each call of such
//!   an import (`_Z23get_image_channel_order` and the image type's
//!   mangling, one image argument, a 32-bit integer result) becomes an
//!   OpImageQueryOrder of its argument, and the import goes (its
//!   declaration, name and decorations; the Linkage capability too where
//!   no other linkage decoration is left). The lowering adds OpenCL's
//!   offset to the enumerant.
//!
//! - **Device-side enqueue** ([`enqueue::fix`], applied by `emit` first):
//!   the placeholders `lower/spirv_enqueue.rs` calls become DeviceEnqueue
//!   instructions, queues and events OpTypeQueue and OpTypeDeviceEvent.
//!
//! The input is a SPIR-V module as LLVM wrote it; anything else (too
//! short, a wrong magic number, an instruction running past the end) is
//! returned unchanged.

pub(crate) mod enqueue;

/// The opcodes the repairs read or write.
const OP_UNDEF: u32 = 1;
const OP_EXTENSION: u32 = 10;
const OP_NAME: u32 = 5;
const OP_LINE: u32 = 8;
const OP_NO_LINE: u32 = 317;
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_EXT_INST: u32 = 12;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_IMAGE: u32 = 25;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_POINTER: u32 = 32;
const OP_TYPE_EVENT: u32 = 34;
const OP_CONSTANT: u32 = 43;
const OP_CONSTANT_NULL: u32 = 46;
const OP_CONSTANT_SAMPLER: u32 = 45;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_PARAMETER: u32 = 55;
const OP_FUNCTION_END: u32 = 56;
const OP_FUNCTION_CALL: u32 = 57;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_DECORATE: u32 = 71;
const OP_MEMBER_DECORATE: u32 = 72;
const OP_GROUP_DECORATE: u32 = 74;
const OP_COPY_OBJECT: u32 = 83;
const OP_SAMPLED_IMAGE: u32 = 86;
const OP_IMAGE_QUERY_ORDER: u32 = 102;
const OP_BITCAST: u32 = 124;
const OP_TYPE_RESERVE_ID: u32 = 36;
const OP_SELECT: u32 = 169;
const OP_PHI: u32 = 245;
const OP_LABEL: u32 = 248;
const OP_BRANCH: u32 = 249;
const OP_BRANCH_CONDITIONAL: u32 = 250;
/// OpReserveReadPipePackets, OpReserveWritePipePackets,
/// OpGroupReserveReadPipePackets, OpGroupReserveWritePipePackets.
const OP_RESERVATIONS: [u32; 4] = [278, 279, 285, 286];
/// Where instructions take a reservation (word offsets):
/// OpReservedReadPipe, OpReservedWritePipe, OpCommitReadPipe,
/// OpCommitWritePipe, OpIsValidReserveId, OpGroupCommitReadPipe,
/// OpGroupCommitWritePipe.
const RESERVATION_OPERANDS: [(u32, usize); 7] = [(276, 4), (277, 4), (280, 2), (281, 2), (282, 3), (287, 3), (288, 3)];
/// The instructions giving a pointer into the object their first operand
/// points into: OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain,
/// OpInBoundsPtrAccessChain, OpPtrCastToGeneric, OpGenericCastToPtr,
/// OpGenericCastToPtrExplicit, OpBitcast.
const DERIVED_POINTERS: [u32; 8] = [65, 66, 67, 70, 121, 122, 123, OP_BITCAST];
/// The decoration MaxByteOffset (SPIR-V 1.1).
const MAX_BYTE_OFFSET: u32 = 45;
const OP_GROUP_ASYNC_COPY: u32 = 259;
const OP_DECORATE_ID: u32 = 332;
const OP_CONSTANT_FUNCTION_POINTER_INTEL: u32 = 5600;
const OP_DECORATE_STRING: u32 = 5632;
/// The capabilities Linkage and Kernel, and the decoration
/// LinkageAttributes with its linkage type Import.
const LINKAGE: u32 = 5;
const KERNEL: u32 = 6;
const LINKAGE_ATTRIBUTES: u32 = 41;
const IMPORT: u32 = 1;
/// The start of the mangled names of `get_image_channel_order`'s
/// overloads (the image type follows).
const CHANNEL_ORDER_PREFIX: &[u8] = b"_Z23get_image_channel_order";
/// The capabilities Float16Buffer and Float16.
const FLOAT16_BUFFER: u32 = 8;
const FLOAT16: u32 = 9;
/// printf's number in OpenCL.std, and the instruction set's name as
/// OpExtInstImport spells it (nul-padded to whole words).
const OPENCL_STD_PRINTF: u32 = 184;
const OPENCL_STD: &[u8] = b"OpenCL.std\0\0";
/// The extension LLVM's printf check may declare, and the storage class
/// it is about.
const RELAXED_PRINTF: &[u8] = b"SPV_EXT_relaxed_printf_string_address_space";
const UNIFORM_CONSTANT: u32 = 0;
/// OpenCL.std's instructions whose last operand is a literal: vloadn,
/// vload_halfn and vloada_halfn (the width), vstore_half_r,
/// vstore_halfn_r and vstorea_halfn_r (the rounding mode).
const OPENCL_STD_LITERAL_LAST: [u32; 6] = [171, 174, 179, 176, 178, 181];
const MAGIC: u32 = 0x0723_0203;
/// Words before the first instruction.
const HEADER: usize = 5;
/// OpGroupAsyncCopy's Event operand: after the opcode word, result type,
/// result, execution scope, destination, source, count and stride.
const EVENT_OPERAND: usize = 8;

/// The module repaired (see the module's documentation).
pub fn fix(binary: Vec<u8>) -> Vec<u8> {
    reserve_ids(samplers_per_function(relaxed_printf_extension(printf_formats(half_buffers_only(event_arrays(null_events(channel_orders(binary))))))))
}

/// The extension LLVM declares when it takes a printf's format to be
/// outside the constant address space (see `emit`'s LLVM options): gone
/// where every printf's format is a pointer into UniformConstant.
fn relaxed_printf_extension(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let Some(&(ext_at, _, ext_len)) = instructions.iter().find(|&&(at, op, len)| op == OP_EXTENSION && literal_string(&words[at + 1..at + len]) == RELAXED_PRINTF) else { return binary };
    let set = opencl_std_set(&words, &instructions);
    let type_of = |id: u32| instructions.iter().find(|&&(at, op, len)| op != OP_EXT_INST && len >= 3 && words[at + 2] == id && words[at + 1] != id).map(|&(at, ..)| words[at + 1]);
    let uniform_constant = |ty: u32| instructions.iter().any(|&(at, op, len)| op == OP_TYPE_POINTER && len == 4 && words[at + 1] == ty && words[at + 2] == UNIFORM_CONSTANT);
    for &(at, op, len) in &instructions {
        if op == OP_EXT_INST && len >= 6 && Some(words[at + 3]) == set && words[at + 4] == OPENCL_STD_PRINTF && !type_of(words[at + 5]).is_some_and(uniform_constant) {
            return binary;
        }
    }
    let mut out = words[..ext_at].to_vec();
    out.extend_from_slice(&words[ext_at + ext_len..]);
    bytes_of(&out)
}

/// Every reservation id typed as OpTypeReserveId, and every load and
/// store of one through a pointer to OpTypeReserveId.
fn reserve_ids(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    if !instructions.iter().any(|&(_, op, _)| OP_RESERVATIONS.contains(&op) || RESERVATION_OPERANDS.iter().any(|&(o, _)| o == op)) {
        return binary;
    }
    // The instructions giving an id a value, among those the reservations
    // and the pointers to them come from (each with a result type, then
    // the result).
    let defs: rustc_hash::FxHashMap<u32, (usize, u32, usize)> = instructions
        .iter()
        .filter(|&&(_, op, len)| len >= 3 && (OP_RESERVATIONS.contains(&op) || DERIVED_POINTERS.contains(&op) || matches!(op, OP_UNDEF | OP_CONSTANT_NULL | OP_VARIABLE | OP_FUNCTION_PARAMETER | OP_LOAD | OP_PHI | OP_SELECT | OP_COPY_OBJECT)))
        .map(|&(at, op, len)| (words[at + 2], (at, op, len)))
        .collect();
    // The object a pointer points into: its variable (or parameter),
    // through casts and access chains.
    let root = |mut p: u32| {
        while let Some(&(at, op, len)) = defs.get(&p)
            && DERIVED_POINTERS.contains(&op)
            && len >= 4
        {
            p = words[at + 3];
        }
        p
    };
    // The ids that are reservations: results of the reserve instructions;
    // phis, selects and copies of them; loads from objects holding them;
    // and, backwards, what instructions take as a reservation. Objects
    // hold reservations where one is stored or loaded (OpenCL C puts
    // `reserve_id_t` in no struct: such an object is a reservation or an
    // array of them). To a fixed point: a phi may come before the value
    // it merges.
    let mut ids = rustc_hash::FxHashSet::default();
    let mut objects = rustc_hash::FxHashSet::default();
    let mut taken = Vec::new();
    loop {
        let before = (ids.len(), objects.len());
        for &(at, op, len) in &instructions {
            let w = &words[at..at + len];
            match op {
                _ if OP_RESERVATIONS.contains(&op) && len >= 3 => {
                    ids.insert(w[2]);
                }
                OP_PHI if len >= 5 => {
                    let incoming = w[3..].iter().step_by(2).copied();
                    if ids.contains(&w[2]) {
                        taken.extend(incoming);
                    } else if incoming.clone().any(|v| ids.contains(&v)) {
                        ids.insert(w[2]);
                    }
                }
                OP_SELECT | OP_COPY_OBJECT if (op == OP_SELECT && len == 6) || (op == OP_COPY_OBJECT && len == 4) => {
                    let values = if op == OP_SELECT { &w[4..6] } else { &w[3..4] };
                    if ids.contains(&w[2]) {
                        taken.extend(values);
                    } else if values.iter().any(|v| ids.contains(v)) {
                        ids.insert(w[2]);
                    }
                }
                OP_LOAD if len >= 4 => {
                    if ids.contains(&w[2]) {
                        objects.insert(root(w[3]));
                    } else if objects.contains(&root(w[3])) {
                        ids.insert(w[2]);
                    }
                }
                OP_STORE if len >= 3 && ids.contains(&w[2]) => {
                    objects.insert(root(w[1]));
                }
                _ => {
                    if let Some(&(_, operand)) = RESERVATION_OPERANDS.iter().find(|&&(o, _)| o == op)
                        && operand < len
                    {
                        taken.push(w[operand]);
                    }
                }
            }
        }
        for id in taken.drain(..) {
            if let Some(&(_, op, _)) = defs.get(&id)
                && matches!(op, OP_LOAD | OP_PHI | OP_SELECT | OP_COPY_OBJECT)
            {
                ids.insert(id);
            }
        }
        if (ids.len(), objects.len()) == before {
            break;
        }
    }
    if ids.is_empty() {
        return binary;
    }
    let existing = instructions.iter().find(|&&(_, op, len)| op == OP_TYPE_RESERVE_ID && len == 2).map(|&(at, ..)| at);
    let mut bound = words[3];
    let ty = existing.map_or_else(
        || {
            bound += 1;
            bound - 1
        },
        |at| words[at + 1],
    );
    // The pointer types to reservations there are, by storage class, and
    // those to add.
    let mut pointers: Vec<(u32, u32)> = instructions
        .iter()
        .filter(|&&(at, op, len)| op == OP_TYPE_POINTER && len == 4 && words[at + 3] == ty)
        .map(|&(at, ..)| (words[at + 2], words[at + 1]))
        .collect();
    let known_pointers = pointers.len();
    // A pointer's storage class, where it does not point to reservations
    // already (`None`: it does; `Some(None)`: its type is not known).
    let storage_to_cast = |p: u32| -> Option<Option<u32>> {
        let Some(&(at, ..)) = defs.get(&p) else { return Some(None) };
        let pointer_type = words[at + 1];
        let found = instructions.iter().find(|&&(t, op, len)| op == OP_TYPE_POINTER && len == 4 && words[t + 1] == pointer_type);
        match found {
            Some(&(t, ..)) if words[t + 3] == ty => None,
            Some(&(t, ..)) => Some(Some(words[t + 2])),
            None => Some(None),
        }
    };
    // What a value merged with reservations is when it is no reservation:
    // undefined or null (through casts), as OpUndef or OpConstantNull.
    let constant_kind = |mut id: u32| loop {
        match defs.get(&id) {
            Some(&(at, op, len)) if DERIVED_POINTERS.contains(&op) && len >= 4 => id = words[at + 3],
            Some(&(at, op @ (OP_UNDEF | OP_CONSTANT_NULL), _)) if words[at + 1] != ty => break Some(op),
            _ => break None,
        }
    };
    // The reservation type's OpUndef and OpConstantNull, where needed.
    let mut constants: Vec<(u32, u32)> = Vec::new();
    let mut out = words[..HEADER].to_vec();
    let mut changed = false;
    let mut globals_at = None;
    for &(at, op, len) in &instructions {
        let mut w = words[at..at + len].to_vec();
        if existing == Some(at) {
            out.extend(&w);
            globals_at = Some(out.len());
            continue;
        }
        if op == OP_FUNCTION && globals_at.is_none() {
            out.extend([(2 << 16) | OP_TYPE_RESERVE_ID, ty]);
            globals_at = Some(out.len());
        }
        let defines = len >= 3 && ids.contains(&w[2]) && (OP_RESERVATIONS.contains(&op) || matches!(op, OP_LOAD | OP_PHI | OP_SELECT | OP_COPY_OBJECT));
        if defines && w[1] != ty {
            w[1] = ty;
            changed = true;
        }
        // Undefined values merged with reservations.
        if defines && matches!(op, OP_PHI | OP_SELECT | OP_COPY_OBJECT) {
            let values: Vec<usize> = match op {
                OP_PHI => (3..len).step_by(2).collect(),
                OP_SELECT => vec![4, 5],
                _ => vec![3],
            };
            for i in values {
                if let Some(kind) = constant_kind(w[i]) {
                    w[i] = constant(&mut constants, &mut bound, kind);
                    changed = true;
                }
            }
        }
        // A null or undefined value stored into an object of reservations
        // is the reservation type's (`CLK_NULL_RESERVE_ID`).
        if op == OP_STORE
            && len >= 3
            && objects.contains(&root(w[1]))
            && let Some(kind) = constant_kind(w[2])
        {
            w[2] = constant(&mut constants, &mut bound, kind);
            changed = true;
        }
        // Loads and stores of reservations go through a pointer to them.
        let pointer = match op {
            OP_LOAD if defines && len >= 4 => Some(3),
            OP_STORE if len >= 3 && (ids.contains(&w[2]) || constants.iter().any(|&(_, id)| id == w[2])) => Some(1),
            _ => None,
        };
        if let Some(i) = pointer {
            match storage_to_cast(w[i]) {
                None => {}
                Some(None) => return binary,
                Some(Some(storage)) => {
                    let pointer_type = match pointers.iter().find(|&&(s, _)| s == storage) {
                        Some(&(_, id)) => id,
                        None => {
                            bound += 1;
                            pointers.push((storage, bound - 1));
                            bound - 1
                        }
                    };
                    let cast = bound;
                    bound += 1;
                    out.extend([(4 << 16) | OP_BITCAST, pointer_type, cast, w[i]]);
                    w[i] = cast;
                    changed = true;
                }
            }
        }
        out.extend(w);
    }
    if !changed {
        return binary;
    }
    // After the reservation type: the pointer types to it and its
    // constants.
    let Some(globals_at) = globals_at else { return binary };
    let mut globals: Vec<u32> = pointers[known_pointers..].iter().flat_map(|&(storage, id)| [(4 << 16) | OP_TYPE_POINTER, id, storage, ty]).collect();
    globals.extend(constants.iter().flat_map(|&(kind, id)| [(3 << 16) | kind, ty, id]));
    out.splice(globals_at..globals_at, globals);
    out[3] = bound;
    // OpSelect takes scalars, vectors and pointers only: a select of
    // reservations (LLVM's for `c ? a : b`) becomes a branch and a phi.
    while let Some(split) = select_as_branch(&out, ty) {
        out = split;
    }
    bytes_of(&out)
}

/// The id of the reservation type's constant `kind` (OpUndef or
/// OpConstantNull), a fresh one the first time.
fn constant(constants: &mut Vec<(u32, u32)>, bound: &mut u32, kind: u32) -> u32 {
    if let Some(&(_, id)) = constants.iter().find(|&&(k, _)| k == kind) {
        return id;
    }
    *bound += 1;
    constants.push((kind, *bound - 1));
    *bound - 1
}

/// The first OpSelect of `ty` values made a diamond: the block holding it
/// ends in a conditional branch to two new blocks that branch to a third,
/// which starts with an OpPhi of the two values (the select's result) and
/// holds the rest of the block; phis that named the block as parent name
/// the third one. `None` when there is no such select.
fn select_as_branch(words: &[u32], ty: u32) -> Option<Vec<u32>> {
    let listed = instructions(words)?;
    let &(at, _, len) = listed.iter().find(|&&(at, op, len)| op == OP_SELECT && len == 6 && words[at + 1] == ty)?;
    let (result, cond, yes, no) = (words[at + 2], words[at + 3], words[at + 4], words[at + 5]);
    // The select's block and function.
    let label = listed.iter().rev().find(|&&(l, op, _)| l < at && op == OP_LABEL).map(|&(l, ..)| words[l + 1])?;
    let function_at = listed.iter().rev().find(|&&(f, op, _)| f < at && op == OP_FUNCTION).map(|&(f, ..)| f)?;
    let function_end = listed.iter().find(|&&(e, op, _)| e > at && op == OP_FUNCTION_END).map(|&(e, ..)| e)?;
    let (then, otherwise, merge) = (words[3], words[3] + 1, words[3] + 2);
    let mut out = words[..at].to_vec();
    out[3] += 3;
    out.extend([(4 << 16) | OP_BRANCH_CONDITIONAL, cond, then, otherwise]);
    out.extend([(2 << 16) | OP_LABEL, then, (2 << 16) | OP_BRANCH, merge]);
    out.extend([(2 << 16) | OP_LABEL, otherwise, (2 << 16) | OP_BRANCH, merge]);
    out.extend([(2 << 16) | OP_LABEL, merge, (7 << 16) | OP_PHI, ty, result, yes, then, no, otherwise]);
    let rest_at = out.len();
    out.extend_from_slice(&words[at + len..]);
    // Phis of the function naming the old block as parent: its end is now
    // the merge block's.
    let shift = rest_at - (at + len);
    let body = function_at..function_end + shift;
    for &(i, op, n) in instructions(&out)?.iter().filter(|(i, ..)| body.contains(i) && *i >= rest_at) {
        if op == OP_PHI {
            for parent in (i + 4..i + n).step_by(2) {
                if out[parent] == label {
                    out[parent] = merge;
                }
            }
        }
    }
    Some(out)
}

/// The module, written by LLVM as SPIR-V 1.1, as SPIR-V 1.0: the version
/// word, and no MaxByteOffset decorations (see the module's
/// documentation).
pub fn as_version_1_0(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let mut out = words[..HEADER].to_vec();
    out[1] = 0x0001_0000;
    for &(at, op, len) in &instructions {
        if op == OP_DECORATE && len >= 3 && words[at + 2] == MAX_BYTE_OFFSET {
            continue;
        }
        out.extend_from_slice(&words[at..at + len]);
    }
    bytes_of(&out)
}

/// Calls of an imported `get_image_channel_order` become
/// OpImageQueryOrder, and the import goes; any other use of the import,
/// or a call or declaration of another shape, leaves the module as it is.
fn channel_orders(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let find = |op: u32, pred: &dyn Fn(&[u32]) -> bool| instructions.iter().find(|&&(at, o, len)| o == op && pred(&words[at + 1..at + len])).map(|&(at, ..)| at);
    // The imports, by their linkage decorations.
    let imports: Vec<u32> = instructions
        .iter()
        .filter(|&&(at, op, len)| op == OP_DECORATE && len >= 5 && words[at + 2] == LINKAGE_ATTRIBUTES && words[at + len - 1] == IMPORT)
        .filter(|&&(at, _, len)| literal_string(&words[at + 3..at + len - 1]).starts_with(CHANNEL_ORDER_PREFIX))
        .map(|&(at, ..)| words[at + 1])
        .collect();
    if imports.is_empty() || find(OP_CAPABILITY, &|w| w == [KERNEL]).is_none() {
        return binary;
    }
    let is_image = |ty: u32| find(OP_TYPE_IMAGE, &|w| w.first() == Some(&ty)).is_some();
    // The type of a call's argument: that of the instruction defining it
    // (the kinds of instruction that can give an image, each with its
    // result type and result first).
    let type_of = |id: u32| {
        instructions
            .iter()
            .find(|&&(at, op, len)| matches!(op, OP_UNDEF | OP_FUNCTION_PARAMETER | OP_FUNCTION_CALL | OP_LOAD | OP_COPY_OBJECT | OP_SELECT | OP_PHI) && len >= 3 && words[at + 2] == id)
            .map(|&(at, ..)| words[at + 1])
    };
    // Each import must be a declaration of one parameter returning a
    // 32-bit integer: OpFunction, OpFunctionParameter, OpFunctionEnd.
    let mut declarations = Vec::new();
    let mut parameters = Vec::new();
    for &f in &imports {
        let Some(i) = instructions.iter().position(|&(at, op, len)| op == OP_FUNCTION && len == 5 && words[at + 2] == f) else { return binary };
        let [(at, _, _), (param_at, OP_FUNCTION_PARAMETER, 3), (end_at, OP_FUNCTION_END, 1)] = instructions[i..(i + 3).min(instructions.len())] else { return binary };
        if find(OP_TYPE_INT, &|w| w == [words[at + 1], 32, 0] || w == [words[at + 1], 32, 1]).is_none() {
            return binary;
        }
        declarations.push(at..end_at + 1);
        parameters.push(words[param_at + 2]);
    }
    let in_declaration = |at: usize| declarations.iter().any(|d| d.contains(&at));
    // What becomes of each instruction: kept, dropped or replaced.
    let mut out = words[..HEADER].to_vec();
    let mut dropped_linkage = false;
    let mut linkage_left = false;
    let mut linkage_capability = None;
    for &(at, op, len) in &instructions {
        let w = &words[at..at + len];
        let target = w.get(1).copied();
        let import_target = target.is_some_and(|t| imports.contains(&t));
        match op {
            _ if in_declaration(at) => continue,
            OP_CAPABILITY if w == [(2 << 16) | OP_CAPABILITY, LINKAGE] => {
                linkage_capability = Some(out.len());
            }
            OP_NAME if import_target || target.is_some_and(|t| parameters.contains(&t)) => continue,
            OP_DECORATE if len >= 3 && w[2] == LINKAGE_ATTRIBUTES => {
                if import_target {
                    dropped_linkage = true;
                    continue;
                }
                linkage_left = true;
            }
            // A declaration's parameter attributes go with it.
            OP_DECORATE if target.is_some_and(|t| parameters.contains(&t)) => continue,
            OP_DECORATE | OP_MEMBER_DECORATE | OP_DECORATE_ID | OP_DECORATE_STRING if import_target => return binary,
            OP_GROUP_DECORATE if w[2..].iter().any(|t| imports.contains(t)) => return binary,
            OP_ENTRY_POINT if w.get(2).is_some_and(|t| imports.contains(t)) => return binary,
            OP_EXECUTION_MODE if import_target => return binary,
            OP_CONSTANT_FUNCTION_POINTER_INTEL if w.get(3).is_some_and(|t| imports.contains(t)) => return binary,
            OP_FUNCTION_CALL if len >= 4 => {
                if w[4..].iter().any(|a| imports.contains(a)) {
                    return binary;
                }
                if imports.contains(&w[3]) {
                    // %r = OpFunctionCall %int %f %image
                    if len != 5 || !type_of(w[4]).is_some_and(is_image) {
                        return binary;
                    }
                    out.extend([(4 << 16) | OP_IMAGE_QUERY_ORDER, w[1], w[2], w[4]]);
                    continue;
                }
            }
            _ => {}
        }
        out.extend(w);
    }
    if !dropped_linkage {
        return binary;
    }
    if let (Some(at), false) = (linkage_capability, linkage_left) {
        out.drain(at..at + 2);
    }
    bytes_of(&out)
}

/// A literal string operand's bytes, up to its terminating nul.
fn literal_string(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect()
}

/// printf formats that are pointers to arrays of 8-bit integers become
/// pointers to their first element.
fn printf_formats(binary: Vec<u8>) -> Vec<u8> {
    let Some(mut words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let Some(set) = opencl_std_set(&words, &instructions) else { return binary };
    let find = |op: u32, pred: &dyn Fn(&[u32]) -> bool| instructions.iter().find(|&&(at, o, len)| o == op && pred(&words[at + 1..at + len])).map(|&(at, ..)| at);
    let Some(uchar_at) = find(OP_TYPE_INT, &|w| w.len() == 3 && w[1] == 8) else { return binary };
    let uchar = words[uchar_at + 1];
    // Format operands to repair: (instruction, its storage class).
    let mut formats = Vec::new();
    for &(at, op, len) in &instructions {
        if op != OP_EXT_INST || len < 6 || words[at + 3] != set || words[at + 4] != OPENCL_STD_PRINTF {
            continue;
        }
        let format = words[at + 5];
        let Some(var) = find(OP_VARIABLE, &|w| w.len() >= 3 && w[1] == format) else { continue };
        let Some(ptr) = find(OP_TYPE_POINTER, &|w| w.len() == 3 && w[0] == words[var + 1]) else { continue };
        let (storage, pointee) = (words[ptr + 2], words[ptr + 3]);
        if find(OP_TYPE_ARRAY, &|w| w.len() == 3 && w[0] == pointee && w[1] == uchar).is_some() {
            formats.push((at, storage));
        }
    }
    if formats.is_empty() {
        return binary;
    }
    // One pointer type per storage class: an existing one, or a new one
    // after the 8-bit integer type.
    let mut bound = words[3];
    let mut new_types = Vec::new();
    let mut pointer_to = |storage: u32| -> u32 {
        if let Some(at) = find(OP_TYPE_POINTER, &|w| w.len() == 3 && w[1] == storage && w[2] == uchar) {
            return words[at + 1];
        }
        if let Some(&(_, id)) = new_types.iter().find(|&&(s, _)| s == storage) {
            return id;
        }
        let id = bound;
        bound += 1;
        new_types.push((storage, id));
        id
    };
    let mut casts = Vec::new();
    for &(at, storage) in &formats {
        let ty = pointer_to(storage);
        casts.push((at, ty));
    }
    // From the end, so that earlier positions stay valid: each cast goes
    // right before its printf, which then takes the cast's result.
    for &(at, ty) in casts.iter().rev() {
        let id = bound;
        bound += 1;
        let format = words[at + 5];
        words[at + 5] = id;
        words.splice(at..at, [(4 << 16) | OP_BITCAST, ty, id, format]);
    }
    let types: Vec<u32> = new_types.iter().flat_map(|&(storage, id)| [(4 << 16) | OP_TYPE_POINTER, id, storage, uchar]).collect();
    words.splice(uchar_at + 4..uchar_at + 4, types);
    words[3] = bound;
    bytes_of(&words)
}

/// What the lowering appends to the name of an `event_t` array on SPIR-V,
/// followed by the array's length: `<name>__clc_events_<N>`.
pub(crate) const EVENT_ARRAY_MARK: &str = "__clc_events_";

/// Arrays of `event_t` with their array type (see the module's
/// documentation); the names lose their mark.
fn event_arrays(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(list) = instructions(&words) else { return binary };
    let def = |id: u32| {
        list.iter().copied().find(|&(at, op, len)| match op {
            OP_VARIABLE => len >= 4 && words[at + 2] == id,
            OP_TYPE_POINTER | OP_TYPE_EVENT => words[at + 1] == id,
            _ => false,
        })
    };
    // Marked variables: id, length, name without the mark.
    let mut marked = Vec::new();
    for &(at, op, len) in &list {
        if op != OP_NAME || len < 3 {
            continue;
        }
        let name = String::from_utf8_lossy(&literal_string(&words[at + 2..at + len])).into_owned();
        if let Some((base, n)) = name.rsplit_once(EVENT_ARRAY_MARK)
            && let Ok(n) = n.parse::<u32>()
        {
            marked.push((words[at + 1], n, base.to_string()));
        }
    }
    if marked.is_empty() {
        return binary;
    }
    let Some(uint) = list.iter().find(|&&(at, op, len)| op == OP_TYPE_INT && len == 4 && words[at + 2] == 32 && words[at + 3] == 0).map(|&(at, ..)| words[at + 1]) else { return binary };
    let mut bound = words[3];
    let mut globals = Vec::new();
    // Variable id -> (new variable id, its type, the old pointer type).
    let mut retyped = rustc_hash::FxHashMap::default();
    for &(v, n, _) in &marked {
        let Some((at, OP_VARIABLE, _)) = def(v) else { continue };
        let ptr = words[at + 1];
        let Some((pat, OP_TYPE_POINTER, 4)) = def(ptr) else { continue };
        let (storage, pointee) = (words[pat + 2], words[pat + 3]);
        if !matches!(def(pointee), Some((_, OP_TYPE_EVENT, _))) || n < 2 {
            continue;
        }
        let existing = list.iter().find(|&&(at, op, len)| op == OP_CONSTANT && len == 4 && words[at + 1] == uint && words[at + 3] == n).map(|&(at, ..)| words[at + 2]);
        let count = existing.unwrap_or_else(|| {
            globals.extend([(4 << 16) | OP_CONSTANT, uint, bound, n]);
            bound += 1;
            bound - 1
        });
        let (array, array_ptr, var) = (bound, bound + 1, bound + 2);
        bound += 3;
        globals.extend([(4 << 16) | OP_TYPE_ARRAY, array, pointee, count, (4 << 16) | OP_TYPE_POINTER, array_ptr, storage, array]);
        retyped.insert(v, (var, array_ptr, ptr));
    }
    let mut out = words[..HEADER].to_vec();
    let mut pending = Vec::new();
    let mut globals_placed = false;
    for &(at, op, len) in &list {
        let w = &words[at..at + len];
        if !matches!(op, OP_VARIABLE | OP_LINE | OP_NO_LINE) && !pending.is_empty() {
            // After the function's variables: each old id a cast of its array.
            for (v, var, ptr) in pending.drain(..) {
                out.extend([(4 << 16) | OP_BITCAST, ptr, v, var]);
            }
        }
        match op {
            OP_FUNCTION if !globals_placed => {
                out.extend(&globals);
                globals_placed = true;
            }
            OP_NAME if len >= 3 && marked.iter().any(|m| m.0 == w[1]) => {
                let &(v, _, ref base) = marked.iter().find(|m| m.0 == w[1]).unwrap_or(&marked[0]);
                let target = retyped.get(&v).map_or(v, |r: &(u32, u32, u32)| r.0);
                let name = string_words(base);
                out.extend([((2 + name.len()) as u32) << 16 | OP_NAME, target]);
                out.extend(name);
                continue;
            }
            OP_DECORATE if len >= 2 && retyped.contains_key(&w[1]) => {
                out.extend(w);
                let at = out.len() - len + 1;
                out[at] = retyped[&w[1]].0;
                continue;
            }
            OP_VARIABLE if len >= 4 && retyped.contains_key(&w[2]) => {
                let (var, array_ptr, ptr) = retyped[&w[2]];
                out.extend([w[0], array_ptr, var]);
                out.extend(&w[3..]);
                pending.push((w[2], var, ptr));
                continue;
            }
            _ => {}
        }
        out.extend(w);
    }
    out[3] = bound;
    bytes_of(&out)
}

/// A literal string's words: its bytes, nul-terminated and padded.
fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.resize((bytes.len() / 4 + 1) * 4, 0);
    little_endian_words(&bytes)
}

/// Every null event of OpGroupAsyncCopy typed as an event.
fn null_events(binary: Vec<u8>) -> Vec<u8> {
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
    bytes_of(&words)
}

/// Drops the Float16 capability where the 16-bit float type is only ever
/// a pointer's pointee (Float16Buffer's case).
fn half_buffers_only(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let capability = |cap: u32| instructions.iter().find(|&&(at, op, len)| op == OP_CAPABILITY && len == 2 && words[at + 1] == cap).map(|&(at, ..)| at);
    let Some(float16_at) = capability(FLOAT16) else { return binary };
    let Some(half) = instructions.iter().find(|&&(at, op, len)| op == OP_TYPE_FLOAT && len >= 3 && words[at + 2] == 16).map(|&(at, ..)| words[at + 1]) else {
        return binary;
    };
    let set = opencl_std_set(&words, &instructions);
    let is_opencl_std = |id: u32| set == Some(id);
    for &(at, op, len) in &instructions {
        let operands = &words[at + 1..at + len];
        let used = match op {
            // The pointee of a pointer type: Float16Buffer's use.
            OP_TYPE_POINTER => false,
            // Names, decorations and other debug or mode instructions,
            // whose operands are mostly literals: no use of the type.
            1..=8 | 10 | 11 | 14..=17 | 71..=75 | 330..=332 => false,
            // OpTypeInt, OpTypeFloat: a result and literals; OpTypeVector:
            // a result, the component type and a literal count.
            21 | 22 => false,
            23 => operands.get(1) == Some(&half),
            // OpConstant, OpSpecConstant: a result type, a result,
            // literals. Only the ids count.
            43 | 50 => operands.first() == Some(&half),
            // OpExtInst: ids but for the instruction number and, in
            // OpenCL.std's vector loads and rounded half stores, the last
            // operand (a width or a rounding mode: `vload_halfn ... 3`).
            12 => {
                let literal_last = operands.len() > 4 && is_opencl_std(operands[2]) && OPENCL_STD_LITERAL_LAST.contains(&operands[3]);
                let ids = if literal_last { &operands[..operands.len() - 1] } else { operands };
                ids.iter().enumerate().any(|(i, &w)| i != 3 && w == half)
            }
            // Ids, then literals (memory operands, lane and member
            // indices, storage classes): OpStore, OpLoad,
            // OpCompositeExtract, OpGenericCastToPtrExplicit,
            // OpCompositeInsert, OpVectorShuffle, OpSwitch; OpVariable's
            // storage class comes before its optional initializer.
            62 => operands[..2.min(operands.len())].contains(&half),
            61 | 81 | 123 => operands[..3.min(operands.len())].contains(&half),
            59 => operands.first() == Some(&half) || operands.get(3) == Some(&half),
            79 | 82 => operands[..4.min(operands.len())].contains(&half),
            251 => operands.first() == Some(&half),
            // Anything else: any operand equal to the type's id (a literal
            // that happens to equal it counts too: the capability stays).
            _ => operands.contains(&half),
        };
        if used {
            return binary;
        }
    }
    let has_buffer = capability(FLOAT16_BUFFER).is_some();
    let mut words = words;
    if has_buffer {
        words.drain(float16_at..float16_at + 2);
    } else {
        words[float16_at + 1] = FLOAT16_BUFFER;
    }
    bytes_of(&words)
}

/// A copy of each OpConstantSampler for every function using it after the
/// first (uses: OpSampledImage's sampler, OpFunctionCall's arguments).
fn samplers_per_function(binary: Vec<u8>) -> Vec<u8> {
    let Some(words) = words_of(&binary) else { return binary };
    let Some(instructions) = instructions(&words) else { return binary };
    let samplers: Vec<usize> = instructions.iter().filter(|&&(_, op, len)| op == OP_CONSTANT_SAMPLER && len == 6).map(|&(at, ..)| at).collect();
    if samplers.is_empty() {
        return binary;
    }
    // The sampler operands of an instruction (word offsets within it).
    let uses = |op: u32, len: usize| -> std::ops::Range<usize> {
        match op {
            OP_SAMPLED_IMAGE if len == 5 => 4..5,
            OP_FUNCTION_CALL if len > 4 => 4..len,
            _ => 0..0,
        }
    };
    // Per sampler id, the functions (by their OpFunction's position) using
    // it, in order.
    let mut users: Vec<(u32, Vec<usize>)> = samplers.iter().map(|&at| (words[at + 2], Vec::new())).collect();
    let mut function = None;
    for &(at, op, len) in &instructions {
        match op {
            OP_FUNCTION => function = Some(at),
            OP_FUNCTION_END => function = None,
            _ => {
                let Some(f) = function else { continue };
                for w in uses(op, len) {
                    if let Some((_, fs)) = users.iter_mut().find(|(id, _)| *id == words[at + w]) {
                        if !fs.contains(&f) {
                            fs.push(f);
                        }
                    }
                }
            }
        }
    }
    // New ids: (sampler, function) -> copy.
    let mut bound = words[3];
    let mut copies: Vec<(u32, usize, u32)> = Vec::new();
    for (id, fs) in &users {
        for &f in fs.iter().skip(1) {
            copies.push((*id, f, bound));
            bound += 1;
        }
    }
    if copies.is_empty() {
        return binary;
    }
    let mut out = words[..HEADER].to_vec();
    out[3] = bound;
    let mut function = None;
    for &(at, op, len) in &instructions {
        let mut inst = words[at..at + len].to_vec();
        match op {
            OP_FUNCTION => function = Some(at),
            OP_FUNCTION_END => function = None,
            _ => {
                if let Some(f) = function {
                    for w in uses(op, len) {
                        if let Some(&(.., new)) = copies.iter().find(|&&(id, g, _)| id == inst[w] && g == f) {
                            inst[w] = new;
                        }
                    }
                }
            }
        }
        out.extend(&inst);
        if op == OP_CONSTANT_SAMPLER && len == 6 {
            for &(.., new) in copies.iter().filter(|&&(id, ..)| id == inst[2]) {
                out.extend([inst[0], inst[1], new, inst[3], inst[4], inst[5]]);
            }
        }
    }
    bytes_of(&out)
}

/// The id of the module's OpenCL.std import, if it has one.
fn opencl_std_set(words: &[u32], instructions: &[(usize, u32, usize)]) -> Option<u32> {
    // "OpenCL.std" as the import's literal string (nul-padded words).
    let opencl_std = little_endian_words(OPENCL_STD);
    instructions.iter().find(|&&(at, op, len)| op == OP_EXT_INST_IMPORT && words[at + 2..at + len] == opencl_std[..]).map(|&(at, ..)| words[at + 1])
}

/// `bytes` (a multiple of four long) as little-endian words.
fn little_endian_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The binary's words (little-endian, as LLVM writes them), if it is a
/// SPIR-V module.
fn words_of(binary: &[u8]) -> Option<Vec<u32>> {
    if binary.len() % 4 != 0 || binary.len() < HEADER * 4 {
        return None;
    }
    let words = little_endian_words(binary);
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
        let fixed = words_of(&fix(bytes_of(&module(&[])))).unwrap();
        let mut want = module(&[(3 << 16) | OP_CONSTANT_NULL, 5, 20]);
        want[3] = 21;
        *want.last_mut().unwrap() = 20;
        assert_eq!(fixed, want);
    }

    #[test]
    fn an_existing_null_event_is_reused() {
        let with = module(&[(3 << 16) | OP_CONSTANT_NULL, 5, 8]);
        let fixed = words_of(&fix(bytes_of(&with))).unwrap();
        let mut want = with.clone();
        *want.last_mut().unwrap() = 8;
        assert_eq!(fixed, want);
    }

    /// Capabilities Float16Buffer and Float16, the 16-bit float type
    /// (id 3), a pointer to it (id 4), then `extra`.
    fn halves(extra: &[u32]) -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        w.extend([(2 << 16) | OP_CAPABILITY, FLOAT16_BUFFER, (2 << 16) | OP_CAPABILITY, FLOAT16]);
        w.extend([(3 << 16) | OP_TYPE_FLOAT, 3, 16, (4 << 16) | OP_TYPE_POINTER, 4, 5, 3]);
        w.extend(extra);
        w
    }

    #[test]
    fn half_pointers_alone_need_no_float16() {
        // A load of a float through a pointer to half (id 6 of type 7):
        // no use of the half type itself.
        let load = [(4 << 16) | 61, 7, 6, 4];
        let fixed = words_of(&fix(bytes_of(&halves(&load)))).unwrap();
        let mut want = halves(&load);
        want.drain(7..9);
        assert_eq!(fixed, want);
        // A value of type half (an OpLoad of half), a vector of halves:
        // Float16 stays.
        for used in [[(4 << 16) | 61, 3, 6, 4], [(4 << 16) | 23, 8, 3, 4]] {
            let m = halves(&used);
            assert_eq!(fix(bytes_of(&m)), bytes_of(&m));
        }
        // Float16 without Float16Buffer becomes Float16Buffer.
        let mut alone = halves(&load);
        alone.drain(5..7);
        let fixed = words_of(&fix(bytes_of(&alone))).unwrap();
        assert_eq!(&fixed[5..7], &[(2 << 16) | OP_CAPABILITY, FLOAT16_BUFFER]);
    }

    #[test]
    fn literal_widths_are_no_use_of_half() {
        // `vload_halfn %offset %p 3` and a vector of 3 floats, the 3 equal
        // to the half type's id: Float16 goes. fabs of an id-3 operand: it
        // stays.
        let mut import = vec![(5 << 16) | OP_EXT_INST_IMPORT, 1];
        import.extend(little_endian_words(OPENCL_STD));
        let call = |inst: u32, last: u32| [(8 << 16) | OP_EXT_INST, 7, 8, 1, inst, 9, 4, last];
        let float3 = [(4 << 16) | 23, 10, 11, 3];
        let m = halves(&[import.clone(), call(174, 3).to_vec(), float3.to_vec()].concat());
        let fixed = words_of(&fix(bytes_of(&m))).unwrap();
        let mut want = m.clone();
        want.drain(7..9);
        assert_eq!(fixed, want);
        let m = halves(&[import, [(6 << 16) | OP_EXT_INST, 7, 8, 1, 23, 3].to_vec()].concat());
        assert_eq!(fix(bytes_of(&m)), bytes_of(&m));
    }

    #[test]
    fn each_function_gets_its_own_constant_sampler() {
        // A sampler (id 3 of type 2) used by two functions (ids 5 and 8):
        // the second's OpSampledImage takes a copy (id 20, the old bound).
        let sampler = [(6 << 16) | OP_CONSTANT_SAMPLER, 2, 3, 2, 0, 0];
        let function = |id: u32, sampled: u32| {
            vec![(5 << 16) | OP_FUNCTION, 1, id, 0, 4, (5 << 16) | OP_SAMPLED_IMAGE, 6, sampled, 7, 3, (1 << 16) | OP_FUNCTION_END]
        };
        let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        w.extend(sampler);
        w.extend(function(5, 9));
        w.extend(function(8, 10));
        let fixed = words_of(&fix(bytes_of(&w))).unwrap();
        let mut want = vec![MAGIC, 0x0001_0000, 0, 21, 0];
        want.extend(sampler);
        want.extend([(6 << 16) | OP_CONSTANT_SAMPLER, 2, 20, 2, 0, 0]);
        want.extend(function(5, 9));
        let mut second = function(8, 10);
        second[9] = 20;
        want.extend(second);
        assert_eq!(fixed, want);
        // One function using it: unchanged.
        let mut one = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        one.extend(sampler);
        one.extend(function(5, 9));
        assert_eq!(fix(bytes_of(&one)), bytes_of(&one));
    }

    #[test]
    fn printf_formats_point_to_their_first_character() {
        let std = little_endian_words(OPENCL_STD);
        let mut w = vec![MAGIC, 0x0001_0000, 0, 20, 0];
        w.push((5 << 16) | OP_EXT_INST_IMPORT);
        w.push(1);
        w.extend(&std);
        let uchar_end = w.len() + 4;
        w.extend([(4 << 16) | OP_TYPE_INT, 2, 8, 0, (4 << 16) | OP_TYPE_INT, 3, 32, 0]);
        w.extend([(4 << 16) | OP_TYPE_ARRAY, 5, 2, 4, (4 << 16) | OP_TYPE_POINTER, 6, 0, 5, (4 << 16) | OP_VARIABLE, 6, 7, 0]);
        let call = w.len();
        w.extend([(7 << 16) | OP_EXT_INST, 3, 8, 1, OPENCL_STD_PRINTF, 7, 9]);
        let fixed = words_of(&fix(bytes_of(&w))).unwrap();
        let mut want = w.clone();
        // The format bitcast to a new pointer type (id 20) as id 21.
        want[3] = 22;
        want.splice(call + 5..call + 6, [21]);
        want.splice(call..call, [(4 << 16) | OP_BITCAST, 20, 21, 7]);
        want.splice(uchar_end..uchar_end, [(4 << 16) | OP_TYPE_POINTER, 20, 0, 2]);
        assert_eq!(fixed, want);
        // A format that is already a pointer to characters stays.
        let mut plain = w.clone();
        plain[uchar_end + 11] = 2;
        assert_eq!(fix(bytes_of(&plain)), bytes_of(&plain));
    }

    /// Capabilities Kernel and Linkage; `get_image_channel_order` imported
    /// as id 10 (a declaration of one parameter, id 11, returning the
    /// 32-bit integer type 2), `extra` after its decoration; a kernel (id
    /// 12) calling it (result 15) with its image parameter (id 13 of image
    /// type 3), or with `arguments` where given.
    fn channel_order_module(extra: &[u32], arguments: Option<&[u32]>) -> Vec<u32> {
        let name = string_words("_Z23get_image_channel_order14ocl_image2d_ro");
        let n = name.len() as u32;
        let mut w = vec![MAGIC, 0x0001_0000, 0, 30, 0];
        w.extend([(2 << 16) | OP_CAPABILITY, KERNEL, (2 << 16) | OP_CAPABILITY, LINKAGE]);
        w.extend([((2 + n) << 16) | OP_NAME, 10]);
        w.extend(&name);
        w.extend([((4 + n) << 16) | OP_DECORATE, 10, LINKAGE_ATTRIBUTES]);
        w.extend(&name);
        w.push(IMPORT);
        w.extend(extra);
        w.extend([(4 << 16) | OP_TYPE_INT, 2, 32, 0, (10 << 16) | OP_TYPE_IMAGE, 3, 4, 1, 0, 0, 0, 0, 0, 0]);
        w.extend([(5 << 16) | OP_FUNCTION, 2, 10, 0, 7, (3 << 16) | OP_FUNCTION_PARAMETER, 6, 11, (1 << 16) | OP_FUNCTION_END]);
        w.extend([(5 << 16) | OP_FUNCTION, 4, 12, 0, 8, (3 << 16) | OP_FUNCTION_PARAMETER, 3, 13, (2 << 16) | 248, 14]);
        let arguments = arguments.unwrap_or(&[13]);
        w.extend([((4 + arguments.len() as u32) << 16) | OP_FUNCTION_CALL, 2, 15, 10]);
        w.extend(arguments);
        w.extend([(1 << 16) | 253, (1 << 16) | OP_FUNCTION_END]);
        w
    }

    #[test]
    fn imported_channel_orders_become_image_queries() {
        let fixed = words_of(&fix(bytes_of(&channel_order_module(&[], None)))).unwrap();
        let mut want = vec![MAGIC, 0x0001_0000, 0, 30, 0];
        want.extend([(2 << 16) | OP_CAPABILITY, KERNEL]);
        want.extend([(4 << 16) | OP_TYPE_INT, 2, 32, 0, (10 << 16) | OP_TYPE_IMAGE, 3, 4, 1, 0, 0, 0, 0, 0, 0]);
        want.extend([(5 << 16) | OP_FUNCTION, 4, 12, 0, 8, (3 << 16) | OP_FUNCTION_PARAMETER, 3, 13, (2 << 16) | 248, 14]);
        want.extend([(4 << 16) | OP_IMAGE_QUERY_ORDER, 2, 15, 13]);
        want.extend([(1 << 16) | 253, (1 << 16) | OP_FUNCTION_END]);
        assert_eq!(fixed, want);
        // Another import (id 20) keeps the Linkage capability.
        let other = string_words("f");
        let mut decoration = vec![((4 + other.len() as u32) << 16) | OP_DECORATE, 20, LINKAGE_ATTRIBUTES];
        decoration.extend(&other);
        decoration.push(IMPORT);
        let fixed = words_of(&fix(bytes_of(&channel_order_module(&decoration, None)))).unwrap();
        assert_eq!(&fixed[5..9], &[(2 << 16) | OP_CAPABILITY, KERNEL, (2 << 16) | OP_CAPABILITY, LINKAGE]);
        assert!(fixed.windows(decoration.len()).any(|w| w == decoration), "{fixed:?}");
        assert!(fixed.windows(4).any(|w| w == [(4 << 16) | OP_IMAGE_QUERY_ORDER, 2, 15, 13]), "{fixed:?}");
    }

    #[test]
    fn unexpected_channel_order_imports_are_left_alone() {
        // A call with two arguments, a call whose argument is no image
        // (the declaration's own parameter, of type 6), an import with a
        // decoration besides its linkage; then an import of another name.
        for m in [
            channel_order_module(&[], Some(&[13, 13])),
            channel_order_module(&[], Some(&[11])),
            channel_order_module(&[(3 << 16) | OP_DECORATE, 10, 0], None),
        ] {
            assert_eq!(fix(bytes_of(&m)), bytes_of(&m));
        }
        let renamed: Vec<u32> = channel_order_module(&[], None).iter().map(|&w| if w == little_endian_words(b"_Z23")[0] { little_endian_words(b"_Z24")[0] } else { w }).collect();
        assert_eq!(fix(bytes_of(&renamed)), bytes_of(&renamed));
    }

    #[test]
    fn other_modules_are_left_alone() {
        // A real event operand (id 4, not a null).
        let mut real = module(&[]);
        *real.last_mut().unwrap() = 4;
        assert_eq!(fix(bytes_of(&real)), bytes_of(&real));
        // Not SPIR-V, truncated, or an instruction past the end.
        assert_eq!(fix(b"\x7fELF....".to_vec()), b"\x7fELF....".to_vec());
        let short = bytes_of(&module(&[])[..12]);
        assert_eq!(fix(short.clone()), short);
        let mut long = module(&[]);
        long.push(9 << 16);
        assert_eq!(fix(bytes_of(&long)), bytes_of(&long));
    }

    const OP_RETURN: u32 = 253;

    /// A function (id 20, type 21 returning 22) with a pipe parameter (id
    /// 23) and two reservations (ids 9 and 10) typed as the pointer type 6,
    /// then `body`; bound 40.
    fn reservations(types: &[u32], body: &[u32]) -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 40, 0];
        w.extend([(4 << 16) | OP_TYPE_POINTER, 6, 5, 7]);
        w.extend(types);
        w.extend([(5 << 16) | OP_FUNCTION, 22, 20, 0, 21, (3 << 16) | OP_FUNCTION_PARAMETER, 24, 23, (2 << 16) | OP_LABEL, 30]);
        w.extend([(7 << 16) | OP_RESERVATIONS[0], 6, 9, 23, 25, 26, 26]);
        w.extend([(7 << 16) | OP_RESERVATIONS[2], 6, 10, 27, 23, 25, 26]);
        w.extend(body);
        w.extend([(1 << 16) | OP_RETURN, (1 << 16) | OP_FUNCTION_END]);
        w
    }

    #[test]
    fn reservations_become_reserve_ids() {
        // A phi of the two, and one of an unrelated pointer (id 11).
        let phis = [(7 << 16) | OP_PHI, 6, 12, 9, 30, 10, 31, (5 << 16) | OP_PHI, 6, 13, 11, 30];
        let fixed = words_of(&fix(bytes_of(&reservations(&[], &phis)))).unwrap();
        // OpTypeReserveId 40 before the function; the reservations and
        // their phi have it, the other phi keeps the pointer type.
        let mut want = reservations(&[(2 << 16) | OP_TYPE_RESERVE_ID, 40], &phis);
        want[3] = 41;
        let typed: Vec<usize> = [9, 10, 12].iter().map(|&id| want.iter().position(|&w| w == id).unwrap() - 1).collect();
        for at in typed {
            want[at] = 40;
        }
        assert_eq!(fixed, want);
        // An OpTypeReserveId already there is the one used.
        let existing = reservations(&[(2 << 16) | OP_TYPE_RESERVE_ID, 8], &[]);
        let fixed = words_of(&fix(bytes_of(&existing))).unwrap();
        assert_eq!(fixed.len(), existing.len());
        assert_eq!(fixed.iter().filter(|&&w| w == 8).count(), 3);
    }

    #[test]
    fn a_select_of_reservations_becomes_a_branch() {
        // %12 = OpSelect %6 %11 %9 %10, then a branch to block 31, whose
        // phi names block 30 as a parent.
        let body = [(6 << 16) | OP_SELECT, 6, 12, 11, 9, 10, (2 << 16) | OP_BRANCH, 31, (2 << 16) | OP_LABEL, 31, (5 << 16) | OP_PHI, 6, 13, 12, 30];
        let fixed = words_of(&fix(bytes_of(&reservations(&[(2 << 16) | OP_TYPE_RESERVE_ID, 8], &body)))).unwrap();
        assert!(!instructions(&fixed).unwrap().iter().any(|&(_, op, _)| op == OP_SELECT));
        // Blocks 40 and 41 branch to 42, which merges the two values.
        let want_tail = [
            (4 << 16) | OP_BRANCH_CONDITIONAL,
            11,
            40,
            41,
            (2 << 16) | OP_LABEL,
            40,
            (2 << 16) | OP_BRANCH,
            42,
            (2 << 16) | OP_LABEL,
            41,
            (2 << 16) | OP_BRANCH,
            42,
            (2 << 16) | OP_LABEL,
            42,
            (7 << 16) | OP_PHI,
            8,
            12,
            9,
            40,
            10,
            41,
            (2 << 16) | OP_BRANCH,
            31,
            (2 << 16) | OP_LABEL,
            31,
            (5 << 16) | OP_PHI,
            8,
            13,
            12,
            42,
            (1 << 16) | OP_RETURN,
            (1 << 16) | OP_FUNCTION_END,
        ];
        assert_eq!(fixed[fixed.len() - want_tail.len()..], want_tail);
        assert_eq!(fixed[3], 43);
    }

    #[test]
    fn version_1_0_has_no_max_byte_offset() {
        let mut w = reservations(&[(4 << 16) | OP_DECORATE, 23, MAX_BYTE_OFFSET, 16, (3 << 16) | OP_DECORATE, 23, 19], &[]);
        w[1] = 0x0001_0100;
        let fixed = words_of(&as_version_1_0(bytes_of(&w))).unwrap();
        let mut want = reservations(&[(3 << 16) | OP_DECORATE, 23, 19], &[]);
        want[1] = 0x0001_0000;
        assert_eq!(fixed, want);
    }
}
