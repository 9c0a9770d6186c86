//! Device-side enqueue: the calls of placeholders `lower/spirv_enqueue.rs`
//! makes become SPIR-V's DeviceEnqueue instructions.
//!
//! - Each call of an imported `__clc_spirv_<instruction>` becomes that
//!   instruction with the call's arguments as operands; the imports go
//!   (declarations, names, decorations; the Linkage capability where no
//!   other linkage decoration is left), DeviceEnqueue is declared.
//! - Queues and events are pointers in clc's IR. The values that are one
//!   (results of OpGetDefaultQueue and OpCreateUserEvent, operands that
//!   take one, and phis, selects and copies of them, to a fixed point) are
//!   typed OpTypeQueue and OpTypeDeviceEvent; a load or store of one goes
//!   through a pointer cast to the handle's pointer type (wait lists and
//!   returned events are memory of handles), a null or undefined one
//!   becomes the handle type's OpConstantNull, a kernel's queue parameter
//!   gets a function type of its own, and a select of handles becomes a
//!   branch (as for reservations).
//! - Operands the translator's readers take typed: the wait list and the
//!   returned event become pointers to OpTypeDeviceEvent, each local size
//!   a pointer to a `size_t`; an Invoke operand, a tag, becomes the id of
//!   the block kernel's function `__clc_block_invoke_<tag>_kernel`, and
//!   each such function gets a kernel of the same name that calls it. This
//!   is the SPIRV-LLVM-Translator's shape, and the only one Intel's CPU
//!   runtime runs: it fails to run an Invoke that is an entry point, or
//!   one not named like clang's block kernels (`…_block_invoke…_kernel`).
//!
//! A module whose placeholders or handles come in a shape this does not
//! know is an error (the driver reports it as an internal error): leaving
//! them would give a module no OpenCL runtime links.

use super::{
    HEADER, IMPORT, LINKAGE, OP_CONSTANT, OP_LABEL, LINKAGE_ATTRIBUTES, OP_BITCAST, OP_CAPABILITY, OP_CONSTANT_NULL, OP_COPY_OBJECT, OP_DECORATE, OP_ENTRY_POINT, OP_FUNCTION, OP_FUNCTION_CALL,
    OP_FUNCTION_END, OP_FUNCTION_PARAMETER, OP_LOAD, OP_NAME, OP_PHI, OP_SELECT, OP_TYPE_INT, OP_TYPE_POINTER, OP_UNDEF, OP_VARIABLE, bytes_of, instructions, literal_string,
    select_as_branch, string_words, words_of,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The start of the placeholders' names; the instruction's name follows
/// (`EnqueueKernel_<number of local sizes>` for OpEnqueueKernel).
pub const PLACEHOLDER_PREFIX: &str = "__clc_spirv_";
/// The name of the block kernel with tag `tag`.
pub fn block_kernel_name(tag: u32) -> String {
    format!("__clc_block_invoke_{tag}_kernel")
}

/// The tag of a block kernel's name.
fn block_kernel_tag(name: &[u8]) -> Option<u32> {
    std::str::from_utf8(name).ok()?.strip_prefix("__clc_block_invoke_")?.strip_suffix("_kernel")?.parse().ok()
}

/// The opcode of a placeholder that only types its operands.
const NO_INSTRUCTION: u32 = 0;
const OP_MEMORY_MODEL: u32 = 14;
const OP_EXECUTION_MODE_CONTRACTION_OFF: u32 = 31;
const OP_RETURN: u32 = 253;
/// OpEntryPoint's execution model Kernel, and OpVariable's storage
/// class Input.
const KERNEL_MODEL: u32 = 6;
const INPUT: u32 = 1;
const OP_TYPE_FUNCTION: u32 = 33;
const OP_TYPE_DEVICE_EVENT: u32 = 35;
const OP_TYPE_QUEUE: u32 = 37;
const OP_STORE: u32 = 62;
/// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain,
/// OpInBoundsPtrAccessChain, OpConvertUToPtr, OpPtrCastToGeneric,
/// OpGenericCastToPtr, OpGenericCastToPtrExplicit: pointer-typed results.
const OP_POINTER_RESULTS: [u32; 8] = [65, 66, 67, 70, 120, 121, 122, 123];
const DEVICE_ENQUEUE: u32 = 19;
const GENERIC: u32 = 8;
/// OpMemoryModel's addressing model Physical64.
const PHYSICAL_64: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Handle {
    Queue,
    Event,
}

/// What an operand of a placeholder is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Operand {
    Plain,
    Handle(Handle),
    /// A pointer to events (a wait list, the returned event).
    Events,
    /// A block kernel's tag.
    Invoke,
    /// A pointer to a `size_t` local size.
    LocalSize,
}

/// What a placeholder's instruction gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gives {
    Nothing,
    /// The call's own result type (an integer or a bool).
    Kept,
    Handle(Handle),
}

/// The instruction a placeholder (its name after the prefix) stands for:
/// opcode, result and operands.
fn instruction(name: &str) -> Option<(u32, Gives, Vec<Operand>)> {
    use Operand::{Events, Invoke, LocalSize, Plain};
    const Q: Operand = Operand::Handle(Handle::Queue);
    const E: Operand = Operand::Handle(Handle::Event);
    let block = [Invoke, Plain, Plain, Plain];
    let with_ndrange = || [&[Plain][..], &block].concat();
    Some(match name {
        "EnqueueMarker" => (291, Gives::Kept, vec![Q, Plain, Events, Events]),
        "GetKernelNDrangeSubGroupCount" => (293, Gives::Kept, with_ndrange()),
        "GetKernelNDrangeMaxSubGroupSize" => (294, Gives::Kept, with_ndrange()),
        "GetKernelWorkGroupSize" => (295, Gives::Kept, block.to_vec()),
        "GetKernelPreferredWorkGroupSizeMultiple" => (296, Gives::Kept, block.to_vec()),
        "RetainEvent" => (297, Gives::Nothing, vec![E]),
        "ReleaseEvent" => (298, Gives::Nothing, vec![E]),
        "CreateUserEvent" => (299, Gives::Handle(Handle::Event), vec![]),
        "IsValidEvent" => (300, Gives::Kept, vec![E]),
        "SetUserEventStatus" => (301, Gives::Nothing, vec![E, Plain]),
        "CaptureEventProfilingInfo" => (302, Gives::Nothing, vec![E, Plain, Plain]),
        "GetDefaultQueue" => (303, Gives::Handle(Handle::Queue), vec![]),
        // A kernel's queue parameter: no instruction.
        "QueueParameter" => (NO_INSTRUCTION, Gives::Nothing, vec![Q]),
        _ => {
            let locals: usize = name.strip_prefix("EnqueueKernel_")?.parse().ok()?;
            let mut ops = vec![Q, Plain, Plain, Plain, Events, Events];
            ops.extend(block);
            ops.extend(std::iter::repeat_n(LocalSize, locals));
            (292, Gives::Kept, ops)
        }
    })
}

/// The module with its placeholders made instructions (see the module's
/// documentation); unchanged if it has none.
pub fn fix(binary: Vec<u8>) -> Result<Vec<u8>, String> {
    let Some(words) = words_of(&binary) else { return Ok(binary) };
    let Some(list) = instructions(&words) else { return Ok(binary) };
    let mut places = FxHashMap::default();
    for &(at, op, len) in &list {
        if op == OP_DECORATE && len >= 5 && words[at + 2] == LINKAGE_ATTRIBUTES && words[at + len - 1] == IMPORT {
            let name = literal_string(&words[at + 3..at + len - 1]);
            if let Some(rest) = name.strip_prefix(PLACEHOLDER_PREFIX.as_bytes()) {
                let rest = String::from_utf8_lossy(rest);
                let Some(i) = instruction(&rest) else { return Err(format!("an unknown device-side enqueue placeholder, {rest}")) };
                places.insert(words[at + 1], i);
            }
        }
    }
    if places.is_empty() {
        return Ok(binary);
    }
    let fixed = Fixer::new(&words, &list, places)?.run()?;
    Ok(bytes_of(&fixed))
}

struct Fixer<'w> {
    words: &'w [u32],
    list: &'w [(usize, u32, usize)],
    places: FxHashMap<u32, (u32, Gives, Vec<Operand>)>,
    /// Instructions by the id they define (those with a result type, and
    /// types).
    defs: FxHashMap<u32, usize>,
    /// The ids that are queues or events.
    handles: FxHashMap<u32, Handle>,
    /// Block kernels' functions by tag.
    kernels: FxHashMap<u32, u32>,
    bound: u32,
    /// Types and constants to add before the first function, and those
    /// found or added, by their words after the opcode (the result id
    /// left out).
    globals: Vec<u32>,
    interned: FxHashMap<(u32, Vec<u32>), u32>,
}

impl<'w> Fixer<'w> {
    fn new(words: &'w [u32], list: &'w [(usize, u32, usize)], places: FxHashMap<u32, (u32, Gives, Vec<Operand>)>) -> Result<Self, String> {
        let mut defs = FxHashMap::default();
        let mut kernels = FxHashMap::default();
        let mut interned = FxHashMap::default();
        for (i, &(at, op, len)) in list.iter().enumerate() {
            let w = &words[at..at + len];
            match op {
                OP_TYPE_INT | OP_TYPE_POINTER | OP_TYPE_FUNCTION | OP_TYPE_DEVICE_EVENT | OP_TYPE_QUEUE if len >= 2 => {
                    defs.insert(w[1], i);
                    interned.entry((op, w[2..].to_vec())).or_insert(w[1]);
                }
                OP_CONSTANT_NULL if len == 3 => {
                    defs.insert(w[2], i);
                    interned.entry((op, vec![w[1]])).or_insert(w[2]);
                }
                OP_UNDEF | OP_CONSTANT | OP_VARIABLE | OP_LOAD | OP_PHI | OP_SELECT | OP_COPY_OBJECT | OP_FUNCTION_CALL | OP_FUNCTION_PARAMETER | OP_BITCAST if len >= 3 => {
                    defs.insert(w[2], i);
                }
                _ if OP_POINTER_RESULTS.contains(&op) && len >= 3 => {
                    defs.insert(w[2], i);
                }
                OP_NAME if len >= 3 => {
                    if let Some(tag) = block_kernel_tag(&literal_string(&w[2..])) {
                        kernels.insert(tag, w[1]);
                    }
                }
                _ => {}
            }
        }
        let mut f = Fixer { words, list, places, defs, handles: FxHashMap::default(), kernels, bound: words[3], globals: Vec::new(), interned };
        f.find_handles()?;
        Ok(f)
    }

    fn op_of(&self, id: u32) -> Option<u32> {
        self.defs.get(&id).map(|&i| self.list[i].1)
    }

    /// A null or undefined value: a handle in a handle's place.
    fn is_nothing(&self, id: u32) -> bool {
        matches!(self.op_of(id), Some(OP_CONSTANT_NULL | OP_UNDEF))
    }

    fn mark(&mut self, id: u32, h: Handle) -> Result<bool, String> {
        if self.is_nothing(id) {
            return Ok(false);
        }
        match self.handles.insert(id, h) {
            Some(old) if old != h => Err(format!("%{id} is used as both a {old:?} and a {h:?}")),
            old => Ok(old.is_none()),
        }
    }

    /// The values merged by a phi, select or copy at `at`.
    fn merged(&self, at: usize, op: u32, len: usize) -> Vec<u32> {
        let w = &self.words[at..at + len];
        match op {
            OP_PHI => w[3..].iter().step_by(2).copied().collect(),
            OP_SELECT if len == 6 => vec![w[4], w[5]],
            OP_COPY_OBJECT if len == 4 => vec![w[3]],
            _ => Vec::new(),
        }
    }

    /// The handles: the placeholders' results and handle operands, and
    /// what phis, selects and copies merge with them.
    fn find_handles(&mut self) -> Result<(), String> {
        for &(at, op, len) in self.list {
            if op != OP_FUNCTION_CALL || len < 4 {
                continue;
            }
            let Some((_, result, operands)) = self.places.get(&self.words[at + 3]).cloned() else { continue };
            if let Gives::Handle(h) = result {
                self.mark(self.words[at + 2], h)?;
            }
            if operands.len() != len - 4 {
                return Err("a device-side enqueue placeholder called with other arguments than it takes".into());
            }
            for (k, o) in operands.iter().enumerate() {
                if let Operand::Handle(h) = *o {
                    self.mark(self.words[at + 4 + k], h)?;
                }
            }
        }
        loop {
            let mut changed = false;
            for &(at, op, len) in self.list {
                let values = self.merged(at, op, len);
                if values.is_empty() {
                    continue;
                }
                let result = self.words[at + 2];
                let kind = self.handles.get(&result).copied().or_else(|| values.iter().find_map(|v| self.handles.get(v).copied()));
                if let Some(h) = kind {
                    changed |= self.mark(result, h)?;
                    for v in values {
                        changed |= self.mark(v, h)?;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // Every handle must come from an instruction this can retype.
        for (&id, h) in &self.handles {
            let ok = match self.op_of(id) {
                Some(OP_LOAD | OP_PHI | OP_SELECT | OP_COPY_OBJECT | OP_FUNCTION_PARAMETER) => true,
                Some(OP_FUNCTION_CALL) => self.defs.get(&id).is_some_and(|&i| self.places.contains_key(&self.words[self.list[i].0 + 3])),
                _ => false,
            };
            if !ok {
                return Err(format!("a {h:?} (%{id}) made by an instruction the SPIR-V repair cannot retype"));
            }
        }
        Ok(())
    }

    /// The id of the type or constant `op` with `operands` (the words
    /// after its result id; a constant's type first), added if new.
    fn global(&mut self, op: u32, operands: &[u32]) -> u32 {
        if let Some(&id) = self.interned.get(&(op, operands.to_vec())) {
            return id;
        }
        let id = self.fresh();
        let len = operands.len() as u32 + 2;
        if op == OP_CONSTANT_NULL {
            self.globals.extend([(len << 16) | op, operands[0], id]);
        } else {
            self.globals.extend([(len << 16) | op, id]);
            self.globals.extend(operands);
        }
        self.interned.insert((op, operands.to_vec()), id);
        id
    }

    fn fresh(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    fn handle_type(&mut self, h: Handle) -> u32 {
        self.global(if h == Handle::Queue { OP_TYPE_QUEUE } else { OP_TYPE_DEVICE_EVENT }, &[])
    }

    /// The type of the value `id` (an instruction with a result type).
    fn type_of(&self, id: u32) -> Result<u32, String> {
        let &i = self.defs.get(&id).ok_or_else(|| format!("no definition of %{id}"))?;
        Ok(self.words[self.list[i].0 + 1])
    }

    /// The storage class of the pointer `id`.
    fn storage_class(&self, id: u32) -> Result<u32, String> {
        let ty = self.type_of(id)?;
        match self.defs.get(&ty).map(|&i| self.list[i]) {
            Some((at, OP_TYPE_POINTER, 4)) => Ok(self.words[at + 2]),
            _ => Err(format!("%{id} is not a pointer")),
        }
    }

    /// `ptr` cast to a pointer to `pointee` in its storage class, the
    /// cast written to `out`.
    fn cast(&mut self, ptr: u32, pointee: u32, out: &mut Vec<u32>) -> Result<u32, String> {
        let sc = self.storage_class(ptr)?;
        let ty = self.global(OP_TYPE_POINTER, &[sc, pointee]);
        if self.type_of(ptr)? == ty {
            return Ok(ptr);
        }
        let id = self.fresh();
        out.extend([(4 << 16) | OP_BITCAST, ty, id, ptr]);
        Ok(id)
    }

    /// The placeholder call at `at` as its instruction, written to `out`.
    fn instruction(&mut self, at: usize, out: &mut Vec<u32>) -> Result<(), String> {
        let w = self.words;
        let (opcode, result, operands) = self.places[&w[at + 3]].clone();
        let mut ops = Vec::with_capacity(operands.len());
        for (k, o) in operands.into_iter().enumerate() {
            let a = w[at + 4 + k];
            ops.push(match o {
                Operand::Plain => a,
                Operand::Handle(h) if self.is_nothing(a) => {
                    let t = self.handle_type(h);
                    self.global(OP_CONSTANT_NULL, &[t])
                }
                Operand::Handle(_) => a,
                Operand::Events => {
                    let event = self.handle_type(Handle::Event);
                    if self.op_of(a) == Some(OP_CONSTANT_NULL) {
                        let t = self.global(OP_TYPE_POINTER, &[GENERIC, event]);
                        self.global(OP_CONSTANT_NULL, &[t])
                    } else {
                        self.cast(a, event, out)?
                    }
                }
                Operand::Invoke => {
                    let tag = match self.defs.get(&a).map(|&i| self.list[i]) {
                        Some((c, OP_CONSTANT, 4)) => w[c + 3],
                        Some((_, OP_CONSTANT_NULL, _)) => 0,
                        _ => return Err("a block kernel's tag that is not a constant".into()),
                    };
                    *self.kernels.get(&tag).ok_or_else(|| format!("no block kernel {}", block_kernel_name(tag)))?
                }
                Operand::LocalSize => {
                    let size_t = self.size_t();
                    self.cast(a, size_t, out)?
                }
            });
        }
        let head = match result {
            Gives::Nothing => vec![],
            Gives::Kept => vec![w[at + 1], w[at + 2]],
            Gives::Handle(h) => vec![self.handle_type(h), w[at + 2]],
        };
        if opcode == NO_INSTRUCTION {
            return Ok(());
        }
        let n = 1 + head.len() + ops.len();
        out.push(((n as u32) << 16) | opcode);
        out.extend(head);
        out.extend(ops);
        Ok(())
    }

    /// The unsigned integer type as wide as the module's pointers.
    fn size_t(&mut self) -> u32 {
        let model = self.list.iter().find(|&&(_, op, len)| op == OP_MEMORY_MODEL && len == 3).map(|&(at, ..)| self.words[at + 1]);
        let bits = if model == Some(PHYSICAL_64) { 64 } else { 32 };
        self.global(OP_TYPE_INT, &[bits, 0])
    }

    fn run(mut self) -> Result<Vec<u32>, String> {
        let w = self.words;
        // The placeholders' declarations and their parameters go.
        let mut dropped = Vec::new();
        let mut gone: FxHashSet<u32> = self.places.keys().copied().collect();
        for (i, &(at, op, _)) in self.list.iter().enumerate() {
            if op == OP_FUNCTION && self.places.contains_key(&w[at + 2]) {
                let end = self.list[i..].iter().position(|&(_, o, _)| o == OP_FUNCTION_END).map_or(self.list.len(), |e| i + e);
                for &(p, o, _) in &self.list[i..end] {
                    if o == OP_FUNCTION_PARAMETER {
                        gone.insert(w[p + 2]);
                    }
                }
                dropped.push(i..=end);
            }
        }
        // Functions whose parameters become handles get a type of their own.
        let mut signatures: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut current = None;
        for &(at, op, _) in self.list {
            if op == OP_FUNCTION {
                current = Some(at);
            }
            if op == OP_FUNCTION_PARAMETER
                && let (Some(h), Some(f)) = (self.handles.get(&w[at + 2]).copied(), current)
            {
                let index = self.list.iter().filter(|&&(p, o, _)| o == OP_FUNCTION_PARAMETER && p > f && p < at).count();
                let operands = match signatures.entry(w[f + 2]) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let Some(&(tat, _, tlen)) = self.defs.get(&w[f + 4]).map(|&ti| &self.list[ti]) else { return Err("a function type without its declaration".into()) };
                        e.insert(w[tat + 2..tat + tlen].to_vec())
                    }
                };
                let Some(slot) = operands.get_mut(1 + index) else { return Err("a parameter its function type lacks".into()) };
                *slot = self.handle_type(h);
            }
        }
        let mut function_types = FxHashMap::default();
        for (f, operands) in signatures {
            function_types.insert(f, self.global(OP_TYPE_FUNCTION, &operands));
        }
        let mut head = w[..HEADER].to_vec();
        let mut body = Vec::new();
        let mut in_functions = false;
        let mut has_device_enqueue = false;
        let mut linkage_capability = None;
        let (mut entry_points_end, mut modes_end, mut contraction_off) = (None, None, false);
        let mut linkage_left = false;
        for (i, &(at, op, len)) in self.list.iter().enumerate() {
            if dropped.iter().any(|d| d.contains(&i)) {
                continue;
            }
            let ins = &w[at..at + len];
            in_functions |= op == OP_FUNCTION;
            let out = if in_functions { &mut body } else { &mut head };
            match op {
                OP_CAPABILITY if ins[1] == LINKAGE => linkage_capability = Some(out.len()),
                OP_CAPABILITY if ins[1] == DEVICE_ENQUEUE => has_device_enqueue = true,
                OP_ENTRY_POINT => entry_points_end = Some(out.len() + len),
                super::OP_EXECUTION_MODE => {
                    modes_end = Some(out.len() + len);
                    contraction_off |= len == 3 && ins[2] == OP_EXECUTION_MODE_CONTRACTION_OFF;
                }
                OP_NAME | OP_DECORATE if gone.contains(&ins[1]) => continue,
                OP_DECORATE if len >= 3 && ins[2] == LINKAGE_ATTRIBUTES => linkage_left = true,
                OP_FUNCTION if function_types.contains_key(&ins[2]) => {
                    out.extend([ins[0], ins[1], ins[2], ins[3], function_types[&ins[2]]]);
                    continue;
                }
                OP_FUNCTION_PARAMETER if self.handles.contains_key(&ins[2]) => {
                    let t = self.handle_type(self.handles[&ins[2]]);
                    out.extend([ins[0], t, ins[2]]);
                    continue;
                }
                OP_FUNCTION_CALL if len >= 4 && self.places.contains_key(&ins[3]) => {
                    self.instruction(at, &mut body)?;
                    continue;
                }
                OP_FUNCTION_CALL if ins[4..].iter().any(|a| self.handles.contains_key(a)) => {
                    return Err("a queue or event passed to a function (functions taking them are inlined)".into());
                }
                OP_LOAD if self.handles.contains_key(&ins[2]) => {
                    let t = self.handle_type(self.handles[&ins[2]]);
                    let p = self.cast(ins[3], t, &mut body)?;
                    body.extend([ins[0], t, ins[2], p]);
                    body.extend(&ins[4..]);
                    continue;
                }
                OP_STORE if len >= 3 && self.handles.contains_key(&ins[2]) => {
                    let t = self.handle_type(self.handles[&ins[2]]);
                    let p = self.cast(ins[1], t, &mut body)?;
                    body.extend([ins[0], p]);
                    body.extend(&ins[2..]);
                    continue;
                }
                OP_PHI | OP_SELECT | OP_COPY_OBJECT if self.handles.contains_key(&ins[2]) => {
                    let h = self.handles[&ins[2]];
                    let t = self.handle_type(h);
                    let null = self.global(OP_CONSTANT_NULL, &[t]);
                    let values = self.merged(at, op, len);
                    let mut new = ins.to_vec();
                    new[1] = t;
                    for (k, x) in new.iter_mut().enumerate().skip(3) {
                        let is_value = match op {
                            OP_PHI => k % 2 == 1,
                            OP_SELECT => k >= 4,
                            _ => true,
                        };
                        if is_value && values.contains(x) && self.is_nothing(*x) {
                            *x = null;
                        }
                    }
                    body.extend(new);
                    continue;
                }
                _ => {}
            }
            let out = if in_functions { &mut body } else { &mut head };
            out.extend(ins);
        }
        // Each block kernel's function gets its kernel.
        let inputs: Vec<u32> = self.list.iter().filter(|&&(at, op, len)| op == OP_VARIABLE && len >= 4 && w[at + 3] == INPUT).map(|&(at, ..)| w[at + 2]).collect();
        let mut kernels: Vec<(u32, u32)> = self.kernels.iter().map(|(&t, &f)| (t, f)).collect();
        kernels.sort_unstable();
        let (mut entry_points, mut modes) = (Vec::new(), Vec::new());
        for (tag, f) in kernels {
            let Some(i) = self.list.iter().position(|&(at, op, len)| op == OP_FUNCTION && len == 5 && w[at + 2] == f) else { return Err("a block kernel's function is not defined".into()) };
            let at = self.list[i].0;
            let (ret, fty) = (w[at + 1], w[at + 4]);
            let params: Vec<u32> = self.list[i + 1..].iter().take_while(|&&(_, op, _)| op == OP_FUNCTION_PARAMETER).map(|&(p, ..)| w[p + 1]).collect();
            let kernel = self.fresh();
            body.extend([(5 << 16) | OP_FUNCTION, ret, kernel, 0, fty]);
            let ids: Vec<u32> = params.iter().map(|&t| {
                let id = self.fresh();
                body.extend([(3 << 16) | OP_FUNCTION_PARAMETER, t, id]);
                id
            }).collect();
            let (label, call) = (self.fresh(), self.fresh());
            body.extend([(2 << 16) | OP_LABEL, label, ((4 + ids.len() as u32) << 16) | OP_FUNCTION_CALL, ret, call, f]);
            body.extend(&ids);
            body.extend([(1 << 16) | OP_RETURN, (1 << 16) | OP_FUNCTION_END]);
            let name = string_words(&block_kernel_name(tag));
            entry_points.push((((3 + name.len() + inputs.len()) as u32) << 16) | OP_ENTRY_POINT);
            entry_points.extend([KERNEL_MODEL, kernel]);
            entry_points.extend(name);
            entry_points.extend(&inputs);
            if contraction_off {
                modes.extend([(3 << 16) | super::OP_EXECUTION_MODE, kernel, OP_EXECUTION_MODE_CONTRACTION_OFF]);
            }
        }
        let Some(entry_points_end) = entry_points_end else { return Err("a module without kernels".into()) };
        let modes_end = modes_end.unwrap_or(entry_points_end);
        head.splice(modes_end..modes_end, modes);
        head.splice(entry_points_end..entry_points_end, entry_points);
        if !linkage_left && let Some(at) = linkage_capability {
            head.drain(at..at + 2);
        }
        if !has_device_enqueue {
            // After the first capability.
            head.splice(HEADER + 2..HEADER + 2, [(2 << 16) | OP_CAPABILITY, DEVICE_ENQUEUE]);
        }
        head.extend(&self.globals);
        head.extend(body);
        head[3] = self.bound;
        let mut words = head;
        for h in [Handle::Queue, Handle::Event] {
            if let Some(&t) = self.interned.get(&(if h == Handle::Queue { OP_TYPE_QUEUE } else { OP_TYPE_DEVICE_EVENT }, vec![])) {
                while let Some(split) = select_as_branch(&words, t) {
                    words = split;
                }
            }
        }
        Ok(words)
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    const OP_TYPE_VOID: u32 = 19;
    const OP_RELEASE_EVENT: u32 = 298;

    /// A kernel that loads a 64-bit integer from a variable and calls
    /// the placeholder `name` (one parameter, void) with it.
    fn module(name: &str) -> Vec<u32> {
        let kname = string_words("k");
        let pname = string_words(&format!("{PLACEHOLDER_PREFIX}{name}"));
        let mut w = vec![super::super::MAGIC, 0x0001_0000, 0, 15, 0];
        w.extend([(2 << 16) | OP_CAPABILITY, 6, (2 << 16) | OP_CAPABILITY, LINKAGE, (3 << 16) | OP_MEMORY_MODEL, 2, 2]);
        w.extend([((3 + kname.len()) as u32) << 16 | OP_ENTRY_POINT, KERNEL_MODEL, 10]);
        w.extend(&kname);
        w.extend([((4 + pname.len()) as u32) << 16 | OP_DECORATE, 4, LINKAGE_ATTRIBUTES]);
        w.extend(&pname);
        w.push(IMPORT);
        w.extend([(4 << 16) | OP_TYPE_INT, 1, 64, 0, (2 << 16) | OP_TYPE_VOID, 2, (4 << 16) | OP_TYPE_FUNCTION, 3, 2, 1]);
        w.extend([(4 << 16) | OP_TYPE_POINTER, 5, 7, 1, (3 << 16) | OP_TYPE_FUNCTION, 6, 2]);
        w.extend([(5 << 16) | OP_FUNCTION, 2, 4, 0, 3, (3 << 16) | OP_FUNCTION_PARAMETER, 1, 7, (1 << 16) | OP_FUNCTION_END]);
        w.extend([(5 << 16) | OP_FUNCTION, 2, 10, 0, 6, (2 << 16) | OP_LABEL, 11, (4 << 16) | OP_VARIABLE, 5, 12, 7]);
        w.extend([(4 << 16) | OP_LOAD, 1, 13, 12, (5 << 16) | OP_FUNCTION_CALL, 2, 14, 4, 13, (1 << 16) | OP_RETURN, (1 << 16) | OP_FUNCTION_END]);
        w
    }

    #[test]
    fn placeholders_become_instructions_and_events_device_events() {
        let fixed = words_of(&fix(bytes_of(&module("ReleaseEvent"))).unwrap()).unwrap();
        let list = instructions(&fixed).unwrap();
        let find = |op: u32| list.iter().find(|&&(_, o, _)| o == op).map(|&(at, _, len)| fixed[at..at + len].to_vec());
        let event = find(OP_TYPE_DEVICE_EVENT).expect("a device event type")[1];
        assert_eq!(find(OP_RELEASE_EVENT), Some(vec![(2 << 16) | OP_RELEASE_EVENT, 13]));
        let load = find(OP_LOAD).unwrap();
        assert_eq!(load[1], event, "the load gives a device event");
        let cast = find(OP_BITCAST).expect("the variable cast to a pointer to events");
        assert_eq!(load[3], cast[2]);
        assert!(find(OP_FUNCTION_CALL).is_none() && !list.iter().any(|&(at, op, _)| op == OP_DECORATE && fixed[at + 2] == LINKAGE_ATTRIBUTES));
        let caps: Vec<u32> = list.iter().filter(|&&(_, op, _)| op == OP_CAPABILITY).map(|&(at, ..)| fixed[at + 1]).collect();
        assert!(caps.contains(&DEVICE_ENQUEUE) && !caps.contains(&LINKAGE), "{caps:?}");
        assert_eq!(list.iter().filter(|&&(at, op, _)| op == OP_FUNCTION && fixed[at + 2] == 4).count(), 0, "the import is gone");
    }

    #[test]
    fn placeholders_of_unknown_names_or_shapes_are_errors() {
        assert!(fix(bytes_of(&module("NoSuchInstruction"))).is_err());
        // It takes four operands, not one.
        assert!(fix(bytes_of(&module("GetKernelWorkGroupSize"))).is_err());
    }

    #[test]
    fn modules_without_placeholders_are_left_alone() {
        let mut renamed = module("ReleaseEvent");
        // The import renamed: not a placeholder.
        let at = renamed.iter().position(|&w| w == u32::from_le_bytes(*b"__cl")).unwrap();
        renamed[at] = u32::from_le_bytes(*b"__xx");
        assert_eq!(fix(bytes_of(&renamed)).unwrap(), bytes_of(&renamed));
    }
}
