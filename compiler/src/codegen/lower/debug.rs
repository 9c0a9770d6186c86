//! `-g`: DWARF line tables. Every function gets a subprogram and every
//! instruction the line and column of the expression it comes from, so a
//! native crash or a debugger stop inside a kernel points at the `.cl`
//! line.

use super::Gen;
use crate::source::{FileId, Span};
use inkwell::debug_info::{
    AsDIScope, DICompileUnit, DIFile, DIFlags, DILocation, DIFlagsConstants, DISubprogram, DWARFEmissionKind, DWARFSourceLanguage, DebugInfoBuilder,
};
use inkwell::module::{FlagBehavior, Module};
use rustc_hash::FxHashMap as HashMap;

pub(super) struct Debug<'ctx> {
    dib: DebugInfoBuilder<'ctx>,
    cu: DICompileUnit<'ctx>,
    files: HashMap<FileId, DIFile<'ctx>>,
    /// The subprogram of the function being generated.
    sub: Option<DISubprogram<'ctx>>,
}

impl<'ctx> Debug<'ctx> {
    pub(super) fn new(module: &Module<'ctx>, main_name: &str, optimized: bool) -> Debug<'ctx> {
        let path = std::path::Path::new(main_name);
        let file = path.file_name().map_or(main_name.to_string(), |f| f.to_string_lossy().into_owned());
        let dir = path.parent().map_or(String::new(), |d| d.display().to_string());
        let (dib, cu) = module.create_debug_info_builder(
            true,
            DWARFSourceLanguage::OpenCL,
            &file,
            &dir,
            concat!("clc ", env!("CARGO_PKG_VERSION")),
            optimized,
            "",
            0,
            "",
            DWARFEmissionKind::LineTablesOnly,
            0,
            false,
            false,
            "",
            "",
        );
        let ctx = module.get_context();
        module.add_basic_value_flag("Debug Info Version", FlagBehavior::Warning, ctx.i32_type().const_int(3, false));
        module.add_basic_value_flag("Dwarf Version", FlagBehavior::Warning, ctx.i32_type().const_int(4, false));
        Debug { dib, cu, files: HashMap::default(), sub: None }
    }

    pub(super) fn finalize(&self) {
        self.dib.finalize();
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    fn di_file(&mut self, id: FileId) -> Option<DIFile<'ctx>> {
        let sm = self.sm;
        let dbg = self.dbg.as_mut()?;
        if let Some(f) = dbg.files.get(&id) {
            return Some(*f);
        }
        let sf = sm.file(id);
        let full = sf.path.as_ref().map_or(sf.name.clone(), |p| p.display().to_string());
        let path = std::path::Path::new(&full);
        let name = path.file_name().map_or(full.clone(), |f| f.to_string_lossy().into_owned());
        let dir = path.parent().map_or(String::new(), |d| d.display().to_string());
        let f = dbg.dib.create_file(&name, &dir);
        dbg.files.insert(id, f);
        Some(f)
    }

    /// Starts a function's subprogram (with `-g`).
    pub(super) fn debug_function(&mut self, name: &str, span: Span, llfn: inkwell::values::FunctionValue<'ctx>, local: bool) {
        let Some(file) = self.di_file(span.file) else { return };
        let (line, _) = self.sm.file(span.file).line_col(span.lo);
        let optimized = self.opts.opt_level > 0;
        let Some(dbg) = self.dbg.as_mut() else { return };
        let ty = dbg.dib.create_subroutine_type(file, None, &[], DIFlags::ZERO);
        let sub = dbg.dib.create_function(dbg.cu.as_debug_info_scope(), name, None, file, line, ty, local, true, line, DIFlags::ZERO, optimized);
        llfn.set_subprogram(sub);
        dbg.sub = Some(sub);
    }

    /// Ends the current function's subprogram.
    pub(super) fn debug_end_function(&mut self) {
        if let Some(dbg) = self.dbg.as_mut() {
            dbg.sub = None;
        }
        self.b.unset_current_debug_location();
    }

    /// The current function's subprogram, to come back to after generating
    /// another function (a block's).
    pub(super) fn debug_save(&self) -> Option<DISubprogram<'ctx>> {
        self.dbg.as_ref().and_then(|d| d.sub)
    }

    pub(super) fn debug_restore(&mut self, sub: Option<DISubprogram<'ctx>>) {
        if let Some(d) = self.dbg.as_mut() {
            d.sub = sub;
        }
        self.b.unset_current_debug_location();
    }

    /// Attributes the instructions that follow to `span`.
    pub(super) fn debug_at(&mut self, span: Span) {
        let Some(dbg) = self.dbg.as_ref() else { return };
        let Some(sub) = dbg.sub else { return };
        if (span.file.0 as usize) >= self.sm.len() {
            return;
        }
        let (line, col) = self.sm.file(span.file).line_col(span.lo);
        let loc = dbg.dib.create_debug_location(self.ctx, line, col, sub.as_debug_info_scope(), None);
        self.b.set_current_debug_location(loc);
    }

    /// With `-g`, the start and end locations of a loop at `span` (its
    /// keyword, its body's last character: the `}` where it is a block),
    /// for its `llvm.loop` ID.
    pub(super) fn debug_loop_locations(&self, span: Span) -> Option<[DILocation<'ctx>; 2]> {
        let dbg = self.dbg.as_ref()?;
        let sub = dbg.sub?;
        if (span.file.0 as usize) >= self.sm.len() {
            return None;
        }
        let file = self.sm.file(span.file);
        let at = |offset| {
            let (line, col) = file.line_col(offset);
            dbg.dib.create_debug_location(self.ctx, line, col, sub.as_debug_info_scope(), None)
        };
        Some([at(span.lo), at(span.hi.saturating_sub(1).max(span.lo))])
    }
}
