//! Moving the loops of a work-group entry into functions of their own, so
//! that [`super::split`] can optimise and generate them on several
//! threads.
//!
//! A kernel's work-group entry (`__clc_wg_<kernel>`, see `lower::cpu`)
//! holds a loop nest per region and per group-level loop; LLVM optimises
//! and generates a function on one thread, so a file with one large
//! kernel used one core. LLVM's `loop-extract` pass moves each top-level
//! loop of a function into a function of its own, called where the loop
//! was (values the loop reads become parameters, values it leaves behind
//! are returned through pointers). The entry then calls its loops one
//! after another, once per work-group (or once per iteration of a
//! group-level loop whose body is extracted whole): a call's cost is
//! nothing next to a loop over a group's work-items.
//!
//! Only work-group entries are outlined: other functions (helpers the
//! inliner decides about) are shielded from the pass with `optnone` for
//! its duration. Outlined functions become externally visible (hidden, so
//! a linked program does not export them) and `noinline`, so the parts
//! may define them apart from their callers and the inliner does not put
//! them back.
//!
//! What the extracted loop knew as facts of its own function is given
//! back to it as parameter attributes where it holds for the one call:
//! - `noalias` for a pointer to memory of the caller's frame (per-work-item
//!   storage, group-level locals) that no other argument points into and
//!   whose address the caller never lets escape (only loaded, stored to,
//!   offset, or passed to outlined loops), and for pointers into the
//!   entry's `noalias` parameters (the argument array and the group: being
//!   `readonly` too, several arguments may point into them): the loads of
//!   the group's ids then still leave the loops, and the vectoriser needs
//!   no run-time overlap checks against the kernel's buffers;
//! - `dereferenceable` and `align` for pointers at constant offsets into
//!   the entry's parameters that have them (the group's fields), so loads
//!   behind branches may still be hoisted;
//! - `range` for an integer loaded with `!range` metadata (the group's
//!   sizes and ids), so the loops' trip counts keep their known bounds.
//!
//! Run after the first half of the pipeline ([`super::emit::Phase`]), the
//! loops are those the simplification left (for example `irce`'s three
//! loops of a range-checked region) and what crosses from one to the next
//! is in registers, so nothing the whole function's optimisation would
//! have removed between regions (dead stores to per-work-item storage)
//! is frozen into a call boundary.

use super::InternalError;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMAttributeRef, LLVMValueRef};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::module::{Linkage, Module};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::TargetMachine;
use inkwell::GlobalVisibility;
use inkwell::values::AsValueRef;
use rustc_hash::FxHashSet;

/// The function attribute the lowering marks region-based work-group
/// entries with (their loop nests one after another); removed here.
pub(crate) const REGIONS_ATTR: &str = "clc-regions";

/// Loops in the form `loop-extract` takes (a preheader, dedicated
/// exits), then the extraction. Run after the module simplification
/// pipeline, which leaves them so.
const PIPELINE: &str = "function(loop-simplify),loop-extract";

/// Has `module` a work-group entry lowered in regions?
pub fn has_regions(module: &Module<'_>) -> bool {
    module.get_functions().any(in_regions)
}

/// Is `f` a work-group entry lowered in regions?
pub fn in_regions(f: inkwell::values::FunctionValue<'_>) -> bool {
    f.get_string_attribute(AttributeLoc::Function, REGIONS_ATTR).is_some()
}

/// Removes the lowering's marks from the work-group entries (the
/// optimised module does not need them).
pub fn unmark(module: &Module<'_>) {
    for f in module.get_functions().filter(|&f| in_regions(f)) {
        f.remove_string_attribute(AttributeLoc::Function, REGIONS_ATTR);
    }
}

/// Outlines the top-level loops of the work-group entries of `module`
/// (see the module documentation); returns the names of the functions
/// made.
pub fn outline_loops(module: &Module<'_>, tm: &TargetMachine) -> Result<Vec<String>, InternalError> {
    let ctx = module.get_context();
    let kind = |name: &str| Attribute::get_named_enum_kind_id(name);
    let (noinline, optnone, alwaysinline) = (kind("noinline"), kind("optnone"), kind("alwaysinline"));
    let fn_loc = AttributeLoc::Function;
    let functions: Vec<_> = module.get_functions().collect();
    let before: FxHashSet<_> = functions.iter().map(|f| f.as_value_ref()).collect();
    // Shield every other defined function; remember what to restore.
    let mut shielded = Vec::new();
    for &f in &functions {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        if in_regions(f) {
            f.remove_string_attribute(fn_loc, REGIONS_ATTR);
            continue;
        }
        let had = |k| f.get_enum_attribute(fn_loc, k).is_some();
        shielded.push((f, had(noinline), had(optnone), had(alwaysinline)));
        f.remove_enum_attribute(fn_loc, alwaysinline);
        f.add_attribute(fn_loc, ctx.create_enum_attribute(noinline, 0));
        f.add_attribute(fn_loc, ctx.create_enum_attribute(optnone, 0));
    }
    let result = module.run_passes(PIPELINE, tm, PassBuilderOptions::create());
    for (f, had_noinline, had_optnone, had_alwaysinline) in shielded {
        if !had_optnone {
            f.remove_enum_attribute(fn_loc, optnone);
        }
        if !had_noinline {
            f.remove_enum_attribute(fn_loc, noinline);
        }
        if had_alwaysinline {
            f.add_attribute(fn_loc, ctx.create_enum_attribute(alwaysinline, 0));
        }
    }
    result.map_err(|e| InternalError { function: None, message: format!("LLVM could not outline the work-group loops: {}", e.to_string_lossy()) })?;
    let mut made = Vec::new();
    for f in module.get_functions() {
        if before.contains(&f.as_value_ref()) || f.count_basic_blocks() == 0 {
            continue;
        }
        f.set_linkage(Linkage::External);
        f.as_global_value().set_visibility(GlobalVisibility::Hidden);
        f.add_attribute(fn_loc, ctx.create_enum_attribute(noinline, 0));
        // SAFETY: `f` is a function of this well-formed module.
        unsafe { annotate_parameters(f.as_value_ref(), &before) };
        made.push(f.get_name().to_string_lossy().into_owned());
    }
    Ok(made)
}

/// Outlines the loops inside `name`, a function [`outline_loops`] made
/// whose one loop holds several (a group-level loop around its regions'
/// loop nests): `loop-extract` leaves a function that is only a loop as it
/// is and extracts the loops in it. Returns the names of the functions
/// made.
pub fn outline_inner_loops(module: &Module<'_>, tm: &TargetMachine, name: &str) -> Result<Vec<String>, InternalError> {
    let Some(f) = module.get_function(name) else { return Ok(Vec::new()) };
    f.add_attribute(AttributeLoc::Function, module.get_context().create_string_attribute(REGIONS_ATTR, ""));
    outline_loops(module, tm)
}

/// Gives outlined function `f` the parameter attributes its one call
/// justifies (see the module documentation).
unsafe fn annotate_parameters(f: LLVMValueRef, before: &FxHashSet<LLVMValueRef>) {
    // SAFETY: walking and annotating a well-formed module.
    unsafe {
        let Some(call) = only_call(f) else { return };
        let ctx = LLVMGetTypeContext(LLVMTypeOf(f));
        let args: Vec<LLVMValueRef> = (0..LLVMGetNumArgOperands(call)).map(|k| LLVMGetOperand(call, k)).collect();
        let bases: Vec<Option<LLVMValueRef>> = args.iter().map(|&a| pointer_base(a)).collect();
        for (k, &arg) in args.iter().enumerate() {
            let index = k as u32 + 1;
            if let Some(base) = bases[k] {
                let alone = bases.iter().filter(|b| **b == Some(base)).count() == 1;
                let own = if LLVMIsAArgument(base).is_null() {
                    alone && !LLVMIsAAllocaInst(base).is_null() && !escapes(base, before)
                } else {
                    // Memory no one writes while the caller runs may be
                    // reached through several parameters.
                    param_attribute(base, "noalias").is_some() && (alone || param_attribute(base, "readonly").is_some())
                };
                if own {
                    LLVMAddAttributeAtIndex(f, index, enum_attribute(ctx, "noalias", 0));
                }
                if let Some((size, align)) = dereferenceable_bytes(arg) {
                    LLVMAddAttributeAtIndex(f, index, enum_attribute(ctx, "dereferenceable", size));
                    LLVMAddAttributeAtIndex(f, index, enum_attribute(ctx, "align", align));
                }
            } else if let Some(range) = load_range(arg).or_else(|| argument_range(arg)) {
                LLVMAddAttributeAtIndex(f, index, range);
            }
        }
    }
}

/// The call of `f`, if that is its one use.
unsafe fn only_call(f: LLVMValueRef) -> Option<LLVMValueRef> {
    // SAFETY: `f` is a function of a well-formed module.
    unsafe {
        let first = LLVMGetFirstUse(f);
        if first.is_null() || !LLVMGetNextUse(first).is_null() {
            return None;
        }
        let call = LLVMIsACallInst(LLVMGetUser(first));
        (!call.is_null() && LLVMGetCalledValue(call) == f).then_some(call)
    }
}

/// The object pointer `v` points into (through address arithmetic), if
/// `v` is a pointer.
unsafe fn pointer_base(mut v: LLVMValueRef) -> Option<LLVMValueRef> {
    // SAFETY: `v` is a value of a well-formed module.
    unsafe {
        if LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMTypeKind::LLVMPointerTypeKind {
            return None;
        }
        loop {
            let inst = LLVMIsAInstruction(v);
            let gep = !inst.is_null() && LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMGetElementPtr;
            if gep || !LLVMIsAConstantExpr(v).is_null() && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMGetElementPtr {
                v = LLVMGetOperand(v, 0);
            } else {
                return Some(v);
            }
        }
    }
}

/// The attribute `name` (with `value`, for those that take one).
fn enum_attribute(ctx: inkwell::llvm_sys::prelude::LLVMContextRef, name: &str, value: u64) -> LLVMAttributeRef {
    // SAFETY: a context of a live module; `name` is a known attribute.
    unsafe { LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()), value) }
}

/// The caller's parameter attribute `name` on `arg`, one of its
/// parameters.
unsafe fn param_attribute(arg: LLVMValueRef, name: &str) -> Option<LLVMAttributeRef> {
    // SAFETY: `arg` is a parameter of a function of a well-formed module.
    unsafe {
        let f = LLVMGetParamParent(arg);
        let k = (0..LLVMCountParams(f)).find(|&k| LLVMGetParam(f, k) == arg)?;
        let a = LLVMGetEnumAttributeAtIndex(f, k + 1, LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()));
        (!a.is_null()).then_some(a)
    }
}

/// How many bytes from `v` on are known readable, and its alignment:
/// for the caller's `dereferenceable` parameters and constant byte
/// offsets into them (the group's fields).
unsafe fn dereferenceable_bytes(v: LLVMValueRef) -> Option<(u64, u64)> {
    // SAFETY: `v` is a value of a well-formed module.
    unsafe {
        let (base, offset) = if LLVMIsAArgument(v).is_null() {
            let gep = LLVMIsAGetElementPtrInst(v);
            if gep.is_null() || LLVMGetNumOperands(gep) != 2 || LLVMGetGEPSourceElementType(gep) != LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v))) {
                return None;
            }
            let index = LLVMGetOperand(gep, 1);
            if LLVMIsAConstantInt(index).is_null() || LLVMIsAArgument(LLVMGetOperand(gep, 0)).is_null() {
                return None;
            }
            (LLVMGetOperand(gep, 0), u64::try_from(LLVMConstIntGetSExtValue(index)).ok()?)
        } else {
            (v, 0)
        };
        let size = LLVMGetEnumAttributeValue(param_attribute(base, "dereferenceable")?);
        let align = param_attribute(base, "align").map_or(1, |a| LLVMGetEnumAttributeValue(a));
        let align = if offset == 0 { align } else { align.min(1 << offset.trailing_zeros()) };
        (offset < size).then_some((size - offset, align))
    }
}

/// Can the caller reach the memory of `alloca` other than through the
/// pointer itself: is its address stored, compared, converted or passed
/// to a function other than an outlined loop or a memory intrinsic?
unsafe fn escapes(alloca: LLVMValueRef, before: &FxHashSet<LLVMValueRef>) -> bool {
    let mut stack = vec![alloca];
    let mut seen = FxHashSet::default();
    // SAFETY: walking the uses of values of a well-formed module.
    unsafe {
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            let mut u = LLVMGetFirstUse(v);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                u = LLVMGetNextUse(u);
                if LLVMIsAInstruction(user).is_null() {
                    return true;
                }
                match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMGetElementPtr if LLVMGetOperand(user, 0) == v => stack.push(user),
                    LLVMOpcode::LLVMLoad => {}
                    LLVMOpcode::LLVMStore if LLVMGetOperand(user, 0) != v => {}
                    LLVMOpcode::LLVMCall => {
                        let callee = LLVMGetCalledValue(user);
                        let outlined = !LLVMIsAFunction(callee).is_null() && !before.contains(&callee);
                        if !outlined && !memory_intrinsic(callee) {
                            return true;
                        }
                    }
                    _ => return true,
                }
            }
        }
    }
    false
}

/// Is `callee` `llvm.memset`, `llvm.memcpy`, `llvm.memmove` or a lifetime
/// marker (which read or write only the memory they are given)?
unsafe fn memory_intrinsic(callee: LLVMValueRef) -> bool {
    // SAFETY: `callee` is a value of a well-formed module.
    unsafe {
        if LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let mut len = 0usize;
        let p = LLVMGetValueName2(callee, &mut len);
        let name = std::slice::from_raw_parts(p.cast::<u8>(), len);
        [&b"llvm.memset."[..], b"llvm.memcpy.", b"llvm.memmove.", b"llvm.lifetime."].iter().any(|prefix| name.starts_with(prefix))
    }
}

/// The caller's `range` attribute on `v`, one of its parameters (an
/// outlined function's, passed on to the loops outlined from it).
unsafe fn argument_range(v: LLVMValueRef) -> Option<LLVMAttributeRef> {
    // SAFETY: `v` is a value of a well-formed module.
    unsafe {
        if LLVMIsAArgument(v).is_null() {
            return None;
        }
        param_attribute(v, "range")
    }
}

/// A `range` attribute for `v` when it is an integer load with `!range`
/// metadata of one interval.
unsafe fn load_range(v: LLVMValueRef) -> Option<LLVMAttributeRef> {
    // SAFETY: `v` is a value of a well-formed module; the metadata is
    // read as LLVM documents `!range` (pairs of integer constants).
    unsafe {
        let load = LLVMIsALoadInst(v);
        if load.is_null() || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMTypeKind::LLVMIntegerTypeKind {
            return None;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(v));
        let md = LLVMGetMetadata(load, LLVMGetMDKindIDInContext(ctx, c"range".as_ptr(), 5));
        if md.is_null() || LLVMGetMDNodeNumOperands(md) != 2 {
            return None;
        }
        let mut ops = [std::ptr::null_mut(); 2];
        LLVMGetMDNodeOperands(md, ops.as_mut_ptr());
        if ops.iter().any(|o| o.is_null() || LLVMIsAConstantInt(*o).is_null()) {
            return None;
        }
        let bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
        if bits > 64 {
            return None;
        }
        let (lo, hi) = (LLVMConstIntGetZExtValue(ops[0]), LLVMConstIntGetZExtValue(ops[1]));
        let kind = LLVMGetEnumAttributeKindForName(c"range".as_ptr(), 5);
        Some(LLVMCreateConstantRangeAttribute(ctx, kind, bits, &lo, &hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::CodegenOptions;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    /// A region entry with two loops one after the other and an
    /// always-inline helper with a loop of its own. The loops read the
    /// group's size (`!range`) and a field of the group, and use two
    /// per-work-item arrays, one of whose addresses escapes.
    const MODULE: &str = r#"
define internal void @helper(ptr %p, i64 %n) alwaysinline {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %a = getelementptr float, ptr %p, i64 %i
  store float 0.0, ptr %a
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @__clc_wg_k(ptr noalias readonly align 8 dereferenceable(64) %args, ptr noalias readonly align 8 dereferenceable(184) %group) "clc-regions" {
entry:
  %ls.p = getelementptr inbounds i8, ptr %group, i64 56
  %ls = load i64, ptr %ls.p, align 8, !range !0
  %id.p = getelementptr inbounds i8, ptr %group, i64 8
  %out.pp = load ptr, ptr %args, align 8
  %out = load ptr addrspace(1), ptr %out.pp, align 8
  %priv = alloca float, i64 %ls, align 4
  %esc = alloca float, i64 %ls, align 4
  %slot = alloca ptr, align 8
  store volatile ptr %esc, ptr %slot, align 8
  %tmp = alloca float, i64 %ls, align 4
  br label %r1
r1:
  %i = phi i64 [ 0, %entry ], [ %i1, %r1 ]
  %id = load i64, ptr %id.p, align 8
  %v = uitofp i64 %id to float
  %pa = getelementptr float, ptr %priv, i64 %i
  store float %v, ptr %pa, align 4
  %ea = getelementptr float, ptr %esc, i64 %i
  store float %v, ptr %ea, align 4
  %i1 = add i64 %i, 1
  %c1 = icmp ult i64 %i1, %ls
  br i1 %c1, label %r1, label %mid
mid:
  br label %r2
r2:
  %j = phi i64 [ 0, %mid ], [ %j1, %r2 ]
  %pb = getelementptr float, ptr %priv, i64 %j
  %x = load float, ptr %pb, align 4
  %eb = getelementptr float, ptr %esc, i64 %j
  %y = load float, ptr %eb, align 4
  %s = fadd float %x, %y
  %ob = getelementptr float, ptr addrspace(1) %out, i64 %j
  store float %s, ptr addrspace(1) %ob, align 4
  %j1 = add i64 %j, 1
  %c2 = icmp ult i64 %j1, %ls
  br i1 %c2, label %r2, label %done
done:
  call void @helper(ptr %tmp, i64 %ls)
  ret void
}

!0 = !{i64 1, i64 4097}
"#;

    /// The text of the parameter of `define` (a function's first line)
    /// named `name`: its type and attributes.
    fn parameter<'a>(define: &'a str, name: &str) -> &'a str {
        let open = define.find('(').unwrap();
        let (mut depth, mut from) = (0, open + 1);
        for (k, c) in define.char_indices().skip(open + 1) {
            match c {
                '(' => depth += 1,
                ')' | ',' if depth == 0 => {
                    let p = define[from..k].trim();
                    if let Some(attrs) = p.strip_suffix(&format!(" %{name}")) {
                        return attrs;
                    }
                    if c == ')' {
                        break;
                    }
                    from = k + 1;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        panic!("no parameter %{name} in {define}")
    }

    #[test]
    fn the_loops_of_a_region_entry_become_functions_that_keep_what_the_caller_knew() {
        let ctx = Context::create();
        let buffer = MemoryBuffer::create_from_memory_range_copy(MODULE.as_bytes(), "outline.ll");
        let module = ctx.create_module_from_ir(buffer).unwrap_or_else(|e| panic!("{}", e.to_string_lossy()));
        let tm = crate::codegen::configure(&module, &CodegenOptions::default()).unwrap();
        assert!(has_regions(&module));
        let mut made = outline_loops(&module, &tm).unwrap();
        made.sort();
        crate::codegen::verify(&module).unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(made.len(), 2, "{text}");
        assert!(made.iter().all(|n| n.starts_with("__clc_wg_k.")), "{made:?}");
        assert!(!has_regions(&module), "the mark is removed: {text}");
        let defines: Vec<&str> = text.lines().filter(|l| l.starts_with("define")).collect();
        // The helper's loop stays where it is, and so do its attributes.
        let helper = defines.iter().find(|d| d.contains("@helper(")).unwrap();
        let helper_fn = module.get_function("helper").unwrap();
        let has = |f: inkwell::values::FunctionValue, a: &str| f.get_enum_attribute(AttributeLoc::Function, Attribute::get_named_enum_kind_id(a)).is_some();
        assert!(has(helper_fn, "alwaysinline") && !has(helper_fn, "noinline") && !has(helper_fn, "optnone"), "{helper}");
        assert!(helper.starts_with("define internal"), "{helper}");
        for name in &made {
            let f = module.get_function(name).unwrap();
            assert!(has(f, "noinline"), "{name}");
            let define = defines.iter().find(|d| d.contains(&format!("@{name}("))).unwrap();
            assert!(define.starts_with("define hidden void"), "{define}");
        }
        // The first loop: the group's size with its range, the field with
        // what is known of the group, the private array as the caller's
        // own; the array whose address escapes without `noalias`.
        let outlined: Vec<&str> = defines.iter().copied().filter(|d| d.starts_with("define hidden")).collect();
        let (r1, r2) = if outlined[0].contains("%id.p") { (outlined[0], outlined[1]) } else { (outlined[1], outlined[0]) };
        assert_eq!(parameter(r1, "ls"), "i64 range(i64 1, 4097)", "{r1}");
        assert_eq!(parameter(r1, "id.p"), "ptr noalias align 8 dereferenceable(176)", "{r1}");
        assert_eq!(parameter(r1, "priv"), "ptr noalias", "{r1}");
        assert_eq!(parameter(r1, "esc"), "ptr", "{r1}");
        assert_eq!(parameter(r2, "out"), "ptr addrspace(1)", "{r2}");
        assert_eq!(parameter(r2, "priv"), "ptr noalias", "{r2}");
    }

    /// A region entry with a work-item loop, then a group-level loop
    /// around two work-item loops, as a tiled kernel's.
    const NESTED: &str = r#"
define void @__clc_wg_t(ptr noalias readonly align 8 dereferenceable(184) %group, i32 %tiles) "clc-regions" {
entry:
  %ls.p = getelementptr inbounds i8, ptr %group, i64 56
  %ls = load i64, ptr %ls.p, align 8, !range !0
  %priv = alloca float, i64 %ls, align 4
  br label %r0
r0:
  %h = phi i64 [ 0, %entry ], [ %h1, %r0 ]
  %p0 = getelementptr float, ptr %priv, i64 %h
  store float 0.0, ptr %p0, align 4
  %h1 = add i64 %h, 1
  %c0 = icmp ult i64 %h1, %ls
  br i1 %c0, label %r0, label %g.pre
g.pre:
  br label %g
g:
  %t = phi i32 [ 0, %g.pre ], [ %t1, %g.next ]
  %tf = sitofp i32 %t to float
  br label %r1
r1:
  %i = phi i64 [ 0, %g ], [ %i1, %r1 ]
  %pa = getelementptr float, ptr %priv, i64 %i
  store float %tf, ptr %pa, align 4
  %i1 = add i64 %i, 1
  %c1 = icmp ult i64 %i1, %ls
  br i1 %c1, label %r1, label %mid
mid:
  br label %r2
r2:
  %j = phi i64 [ 0, %mid ], [ %j1, %r2 ]
  %pb = getelementptr float, ptr %priv, i64 %j
  %x = load float, ptr %pb, align 4
  %y = fadd float %x, 1.0
  store float %y, ptr %pb, align 4
  %j1 = add i64 %j, 1
  %c2 = icmp ult i64 %j1, %ls
  br i1 %c2, label %r2, label %g.next
g.next:
  %t1 = add i32 %t, 1
  %c = icmp slt i32 %t1, %tiles
  br i1 %c, label %g, label %exit
exit:
  ret void
}

!0 = !{i64 1, i64 4097}
"#;

    /// The group-level loop is outlined whole first; outlining inside it
    /// then makes a function of each work-item loop, called from the
    /// group-level loop's function, with what that function knew of its
    /// parameters (the group's size and its range, the per-work-item
    /// array as its own).
    #[test]
    fn the_loops_inside_an_outlined_loop_are_outlined_with_what_it_knew() {
        let ctx = Context::create();
        let buffer = MemoryBuffer::create_from_memory_range_copy(NESTED.as_bytes(), "nested.ll");
        let module = ctx.create_module_from_ir(buffer).unwrap_or_else(|e| panic!("{}", e.to_string_lossy()));
        let tm = crate::codegen::configure(&module, &CodegenOptions::default()).unwrap();
        let mut outer = outline_loops(&module, &tm).unwrap();
        outer.sort();
        assert_eq!(outer, ["__clc_wg_t.g", "__clc_wg_t.r0"], "{}", module.print_to_string().to_string());
        let mut inner = outline_inner_loops(&module, &tm, &outer[0]).unwrap();
        inner.sort();
        crate::codegen::verify(&module).unwrap();
        let text = module.print_to_string().to_string();
        assert_eq!(inner.len(), 2, "{text}");
        assert!(!has_regions(&module), "the mark is removed: {text}");
        let defines: Vec<&str> = text.lines().filter(|l| l.starts_with("define")).collect();
        for name in &inner {
            assert!(name.starts_with(&format!("{}.", outer[0])), "{name}");
            let define = defines.iter().find(|d| d.contains(&format!("@{name}("))).unwrap();
            assert!(define.starts_with("define hidden void"), "{define}");
            assert_eq!(parameter(define, "ls"), "i64 range(i64 1, 4097)", "{define}");
            assert_eq!(parameter(define, "priv"), "ptr noalias", "{define}");
            // Called from the group-level loop's function, not the entry.
            let calls: Vec<&str> = text.lines().filter(|l| l.contains(&format!("call void @{name}("))).collect();
            assert_eq!(calls.len(), 1, "{text}");
        }
        let body = |f: &str| {
            let start = text.find(defines.iter().find(|d| d.contains(&format!("@{f}("))).unwrap()).unwrap();
            text[start..start + text[start..].find("\n}\n").unwrap()].to_string()
        };
        assert!(inner.iter().all(|n| body(&outer[0]).contains(&format!("call void @{n}("))), "{text}");
        assert!(body("__clc_wg_t").contains(&format!("call void @{}(", outer[0])), "{text}");
        // A function that is only its loop, without loops inside: nothing.
        assert!(outline_inner_loops(&module, &tm, &outer[1]).unwrap().is_empty());
    }

    #[test]
    fn functions_not_marked_are_left_alone() {
        let ctx = Context::create();
        let text = MODULE.replace(" \"clc-regions\"", "");
        let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "outline.ll");
        let module = ctx.create_module_from_ir(buffer).unwrap();
        let tm = crate::codegen::configure(&module, &CodegenOptions::default()).unwrap();
        assert!(!has_regions(&module));
        let before = module.print_to_string().to_string();
        assert!(outline_loops(&module, &tm).unwrap().is_empty());
        assert_eq!(module.print_to_string().to_string(), before);
    }
}
