//! `-g`: DWARF line tables. Every function gets a subprogram and every
//! instruction the line and column of the expression it comes from, so a
//! native crash or a debugger stop inside a kernel points at the `.cl`
//! line: the presumed file and line, after `#line` directives, as clang's.

use super::Gen;
use crate::source::{FileId, Span};
use inkwell::debug_info::{
    AsDIScope, DICompileUnit, DIFile, DIFlags, DILocation, DIFlagsConstants, DIScope, DISubprogram, DWARFEmissionKind, DWARFSourceLanguage,
    DebugInfoBuilder,
};
use inkwell::module::{FlagBehavior, Module};
use rustc_hash::FxHashMap as HashMap;

pub(super) struct Debug<'ctx> {
    dib: DebugInfoBuilder<'ctx>,
    cu: DICompileUnit<'ctx>,
    /// By presumed file name.
    files: HashMap<String, DIFile<'ctx>>,
    /// The subprogram of the function being generated.
    sub: Option<DISubprogram<'ctx>>,
    /// Its presumed file's name, and the lexical blocks that place code
    /// from other presumed files (`#line`) in it, by name.
    sub_file: String,
    blocks: HashMap<String, DIScope<'ctx>>,
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
        Debug { dib, cu, files: HashMap::default(), sub: None, sub_file: String::new(), blocks: HashMap::default() }
    }

    pub(super) fn finalize(&self) {
        self.dib.finalize();
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The file of a presumed name: `file`'s path where the name is its
    /// own, else the name as a `#line` directive gave it.
    fn di_file(&mut self, id: FileId, presumed: &str) -> Option<DIFile<'ctx>> {
        let sm = self.sm;
        let dbg = self.dbg.as_mut()?;
        if let Some(f) = dbg.files.get(presumed) {
            return Some(*f);
        }
        let sf = sm.file(id);
        let full = match &sf.path {
            Some(p) if sf.name == presumed => p.display().to_string(),
            _ => presumed.to_string(),
        };
        let path = std::path::Path::new(&full);
        let name = path.file_name().map_or(full.clone(), |f| f.to_string_lossy().into_owned());
        let dir = path.parent().map_or(String::new(), |d| d.display().to_string());
        let f = dbg.dib.create_file(&name, &dir);
        dbg.files.insert(presumed.to_string(), f);
        Some(f)
    }

    /// Starts a function's subprogram (with `-g`).
    pub(super) fn debug_function(&mut self, name: &str, span: Span, llfn: inkwell::values::FunctionValue<'ctx>, local: bool) {
        if self.dbg.is_none() {
            return;
        }
        let p = self.sm.presumed(span);
        let Some(file) = self.di_file(span.file, p.name) else { return };
        let line = p.line;
        let optimized = self.opts.opt_level > 0;
        let Some(dbg) = self.dbg.as_mut() else { return };
        let ty = dbg.dib.create_subroutine_type(file, None, &[], DIFlags::ZERO);
        let sub = dbg.dib.create_function(dbg.cu.as_debug_info_scope(), name, None, file, line, ty, local, true, line, DIFlags::ZERO, optimized);
        llfn.set_subprogram(sub);
        dbg.sub = Some(sub);
        dbg.sub_file = p.name.to_string();
        dbg.blocks.clear();
    }

    /// The scope for code at presumed place `span` in the current
    /// function: the function's, or a lexical block in the file a `#line`
    /// directive names.
    fn debug_scope(&mut self, span: Span, sub: DISubprogram<'ctx>) -> (DIScope<'ctx>, u32, u32) {
        let p = self.sm.presumed(span);
        let scope = sub.as_debug_info_scope();
        let Some(dbg) = self.dbg.as_ref() else { return (scope, p.line, p.col) };
        if dbg.sub_file == p.name {
            return (scope, p.line, p.col);
        }
        if let Some(b) = dbg.blocks.get(p.name) {
            return (*b, p.line, p.col);
        }
        let Some(file) = self.di_file(span.file, p.name) else { return (scope, p.line, p.col) };
        let Some(dbg) = self.dbg.as_mut() else { return (scope, p.line, p.col) };
        let block = dbg.dib.create_lexical_block(scope, file, p.line, p.col).as_debug_info_scope();
        dbg.blocks.insert(p.name.to_string(), block);
        (block, p.line, p.col)
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
        let Some(sub) = self.dbg.as_ref().and_then(|d| d.sub) else { return };
        if (span.file.0 as usize) >= self.sm.len() {
            return;
        }
        let (scope, line, col) = self.debug_scope(span, sub);
        let Some(dbg) = self.dbg.as_ref() else { return };
        let loc = dbg.dib.create_debug_location(self.ctx, line, col, scope, None);
        self.b.set_current_debug_location(loc);
    }

    /// With `-g`, the start and end locations of a loop at `span` (its
    /// keyword, its body's last character: the `}` where it is a block),
    /// for its `llvm.loop` ID.
    pub(super) fn debug_loop_locations(&mut self, span: Span) -> Option<[DILocation<'ctx>; 2]> {
        let sub = self.dbg.as_ref()?.sub?;
        if (span.file.0 as usize) >= self.sm.len() {
            return None;
        }
        let mut at = |offset| {
            let (scope, line, col) = self.debug_scope(Span { file: span.file, lo: offset, hi: offset }, sub);
            self.dbg.as_ref().map(|dbg| dbg.dib.create_debug_location(self.ctx, line, col, scope, None))
        };
        Some([at(span.lo)?, at(span.hi.saturating_sub(1).max(span.lo))?])
    }
}
