//! Braced initializer lists for arrays and records (C99 6.7.8, as clang's
//! `InitListChecker` reads them): each item is placed in a sub-object of
//! the list's object, by position (with brace elision) or by designators
//! (`.m`, `[i]`, GNU's `[lo ... hi]`), and checked against that
//! sub-object's type. The places are facts the lowering reads, so the
//! typed program puts every item where the checker put it.
//!
//! After a designator, positional items go on in the innermost object it
//! named (`{ .p.a = 1, 2 }`: `2` is `p`'s next member), and back out when
//! that is full, as clang's. Vectors take an item whole (OpenCL C has no
//! brace elision into vectors); their lists are `vector_list`'s.

use super::*;
use std::collections::BTreeMap;

/// One step from an object to one of its sub-objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A member, by position (an anonymous member is a step of its own).
    Field(u32),
    /// Elements `lo..=hi` of an array (one element: `lo == hi`).
    Elements(u64, u64),
}

impl Step {
    /// The positions the step covers, `lo..=hi` (a member: one).
    pub(crate) fn bounds(self) -> (u64, u64) {
        match self {
            Step::Field(f) => (f as u64, f as u64),
            Step::Elements(lo, hi) => (lo, hi),
        }
    }
}

/// Where each initialized leaf of the outermost list is, with the span
/// of what initialized it (for -Winitializer-overrides). Keys are
/// positions from the outermost object, ranges expanded.
#[derive(Default)]
struct Marks {
    done: BTreeMap<Vec<u64>, Span>,
    /// Range expansions left: `[0 ... 1000000]` is placed, not tracked.
    budget: usize,
}

/// The most elements one GNU range designator may cover.
const RANGE_LIMIT: u64 = 1 << 20;

/// More expanded positions than this in one list are not tracked.
const TRACKED: usize = 1 << 16;

/// A walk over one outermost braced list.
struct Walk {
    marks: Marks,
    /// Record the places: when a typed program is wanted, and not in the
    /// dry walk that sizes `T a[]`.
    record: bool,
    /// Depth of the innermost explicit list's object in the path.
    base: usize,
    /// The outermost list's object.
    root: QualType,
    /// The position the innermost explicit list's next item takes when it
    /// has no place of its own: one after the previous item's first step.
    next: u64,
}

impl Checker<'_> {
    /// Checks braced list `items` for an array or record object of type
    /// `q`; returns, for an array, how many elements the list reaches
    /// (the length of `T a[] = { … }`).
    pub(super) fn init_list(&mut self, q: QualType, items: &[InitItem]) -> u64 {
        let mut w = Walk { marks: Marks { budget: TRACKED, ..Marks::default() }, record: self.facts.enabled, base: 0, root: q, next: 0 };
        let mut path = Vec::new();
        let mut i = 0;
        self.fill(&mut w, &mut path, q, 0, items, &mut i, true, false)
    }

    /// The length `T a[] = { items }` gets, found by walking the list
    /// without reporting (the list is checked again, for the completed
    /// type, like every initializer).
    pub(crate) fn list_extent(&mut self, q: QualType, items: &[InitItem]) -> u64 {
        let mut scratch = Diagnostics::default();
        std::mem::swap(self.diags, &mut scratch);
        let mut w = Walk { marks: Marks::default(), record: false, base: 0, root: q, next: 0 };
        let (mut path, mut i) = (Vec::new(), 0);
        let n = self.fill(&mut w, &mut path, q, 0, items, &mut i, true, false);
        std::mem::swap(self.diags, &mut scratch);
        n
    }

    /// How many sub-objects positional items fill: elements, members (a
    /// union's first only); `None` for an array of unknown length.
    fn sub_count(&self, t: TypeId) -> Option<u64> {
        match self.types.kind(t) {
            TypeKind::Array(_, n) => *n,
            TypeKind::Record(r) => {
                let rec = &self.types.records[*r as usize];
                let n = rec.fields.as_ref().map_or(0, Vec::len) as u64;
                Some(if rec.is_union { n.min(1) } else { n })
            }
            _ => Some(0),
        }
    }

    pub(crate) fn sub_type(&self, q: QualType, pos: u64) -> QualType {
        match *self.types.kind(q.ty) {
            TypeKind::Array(el, _) => el,
            // (Past the members: no sub-object; the caller checked.)
            TypeKind::Record(r) => match self.types.records[r as usize].fields.as_ref().and_then(|fs| fs.get(pos as usize)) {
                Some(f) => QualType { space: q.space, ..f.ty },
                None => q,
            },
            _ => q,
        }
    }

    pub(super) fn is_aggregate_type(&self, t: TypeId) -> bool {
        matches!(self.types.kind(t), TypeKind::Array(..) | TypeKind::Record(_))
    }

    /// Fills object `q` (an array or record, at `path`) from position
    /// `start` with `items[*i..]`. `explicit`: the object has braces of its
    /// own, so every item is its (the extra ones are excess); else brace
    /// elision put it here, and it takes items while it has room and no
    /// designator comes. `lead`: `items[*i]` is here by its designators
    /// (its own, not one starting anew). Returns how far into an array the
    /// items reached.
    #[allow(clippy::too_many_arguments)]
    fn fill(&mut self, w: &mut Walk, path: &mut Vec<Step>, q: QualType, start: u64, items: &[InitItem], i: &mut usize, explicit: bool, lead: bool) -> u64 {
        let count = self.sub_count(q.ty);
        let mut pos = start;
        let mut extent = start;
        let lead = lead.then_some(*i);
        while *i < items.len() {
            let item = &items[*i];
            if !item.designators.is_empty() && lead != Some(*i) {
                if !explicit {
                    break;
                }
                if let Some(at) = self.designate(w, path, q, &item.designators, items, i, false) {
                    pos = at + 1;
                    extent = extent.max(pos);
                }
                continue;
            }
            if count.is_some_and(|n| pos >= n) {
                if !explicit {
                    break;
                }
                let kind = match self.types.kind(q.ty) {
                    TypeKind::Record(r) if self.types.records[*r as usize].is_union => "union",
                    TypeKind::Record(_) => "struct",
                    _ => "array",
                };
                self.diags.push(Diagnostic::warning("excess-initializers", item.init.span(), format!("excess elements in {kind} initializer")));
                if w.record {
                    self.facts.excess.insert(addr(item));
                }
                for rest in &items[*i..] {
                    self.skip_item(rest);
                }
                *i = items.len();
                break;
            }
            path.push(self.step(q.ty, pos));
            self.element(w, path, self.sub_type(q, pos), items, i);
            path.pop();
            pos += 1;
            extent = extent.max(pos);
        }
        extent
    }

    fn step(&self, t: TypeId, pos: u64) -> Step {
        match self.types.kind(t) {
            TypeKind::Record(_) => Step::Field(pos as u32),
            _ => Step::Elements(pos, pos),
        }
    }

    /// Types an item without placing it (after an error, excess, or in a
    /// list only typed).
    pub(crate) fn skip_item(&mut self, item: &InitItem) {
        for d in &item.designators {
            match d {
                Designator::Index(e, _) => {
                    let _ = self.value(e);
                }
                Designator::Range(r, ..) => {
                    let _ = self.value(&r.0);
                    let _ = self.value(&r.1);
                }
                Designator::Field(_) => {}
            }
        }
        self.init(&item.init);
    }

    /// The sub-object of type `q` at `path` takes `items[*i]`: whole, or
    /// (an expression for an aggregate of another type) by brace elision,
    /// its first scalar and the items after it.
    fn element(&mut self, w: &mut Walk, path: &mut Vec<Step>, q: QualType, items: &[InitItem], i: &mut usize) {
        let item = &items[*i];
        // A record whose members had errors, or none: reported already.
        if let TypeKind::Record(r) = *self.types.kind(q.ty)
            && (self.types.records[r as usize].fields.is_none() || self.broken_records.contains(&r))
        {
            self.skip_item(item);
            *i += 1;
            return;
        }
        // A flexible array member has no room for elements (clang allows
        // them at program scope, a GNU extension clc does not take).
        if matches!(self.types.kind(q.ty), TypeKind::Array(_, None)) && matches!(path.last(), Some(Step::Field(_))) {
            let mut d = err("E0326", item.init.span(), "initialization of flexible array member is not allowed");
            if self.func.is_none() {
                d = d.with_note("clang accepts it at program scope as a GNU extension; clc does not");
            }
            self.diags.push(d);
            self.skip_item(item);
            *i += 1;
            return;
        }
        match &item.init {
            Initializer::List { items: inner, span } if self.is_aggregate_type(q.ty) && self.braced_string(q.ty, inner).is_none() => {
                *i += 1;
                // A list for what items initialized before replaces it
                // whole (the lowering zeroes it first), as clang's.
                let reset = self.override_whole(w, path, *span);
                self.place(w, path, item, q, reset);
                let outer = (std::mem::replace(&mut w.base, path.len()), std::mem::replace(&mut w.next, 0));
                let mut j = 0;
                self.fill(w, path, q, 0, inner, &mut j, true, false);
                (w.base, w.next) = outer;
            }
            Initializer::List { span, .. } => {
                *i += 1;
                self.place(w, path, item, q, false);
                self.init_as(&item.init, q);
                let _ = self.override_whole(w, path, *span);
                self.mark(w, path, *span);
            }
            Initializer::Expr(e) => {
                let whole = match self.types.kind(q.ty) {
                    // A string fills a character array.
                    TypeKind::Array(el, _) => {
                        matches!(strip(e).kind, ExprKind::StringLit(_)) && matches!(self.types.kind(el.ty), TypeKind::Scalar(Scalar::Char | Scalar::UChar))
                    }
                    // A value of the record's type fills it; anything else
                    // starts brace elision (clang: `{ q }` for a `struct P`
                    // from a `struct Q` initializes P's first member).
                    TypeKind::Record(_) => !surely_no_record(e) && self.type_expr_quiet(e).is_some_and(|t| self.same_unqual(t, q.ty)),
                    _ => true,
                };
                let before = *i;
                if !whole {
                    self.fill(w, path, q, 0, items, i, false, true);
                }
                // An aggregate that takes no item (a record without
                // members) takes this one whole, and the conversion says
                // why it cannot.
                if *i == before {
                    *i += 1;
                    self.place(w, path, item, q, false);
                    self.init_as(&item.init, q);
                    let _ = self.override_whole(w, path, e.span);
                    self.mark(w, path, e.span);
                }
            }
        }
    }

    /// Records where `item` goes, relative to the innermost explicit list.
    ///
    /// An item that goes one past the previous one in its list (the
    /// common case, `{1, 2, 3}`) has no place recorded: the lowering
    /// counts those itself, so a table of a million numbers costs no more.
    fn place(&mut self, w: &mut Walk, path: &[Step], item: &InitItem, q: QualType, reset: bool) {
        // GCC evaluates a range's initializer once; the lowering gives
        // each element its own copy, the same only without side effects.
        if path.iter().any(|s| matches!(s, Step::Elements(lo, hi) if lo < hi)) && has_side_effects(&item.init) {
            let d = err("E0326", item.init.span(), "an initializer with side effects for a GNU array range designator is not supported")
                .with_note("it would run once for each element; compute the value into a variable first");
            self.diags.push(d);
        }
        if w.record {
            let own = &path[w.base..];
            let first = own[0].bounds();
            if reset || !(own.len() == 1 && first == (w.next, w.next)) {
                self.facts.places.insert(addr(item), (own.to_vec(), q));
            }
            if reset {
                self.facts.resets.insert(addr(item));
            }
            w.next = first.1 + 1;
        }
    }

    /// Applies designators `ds` of `items[*i]` to object `q` at `path`,
    /// then places the item; `nested`: `ds` follow another designator, so
    /// positional items after the item go on in `q`. Returns the position
    /// the first designator named; `None` (the item skipped) after an
    /// error.
    #[allow(clippy::too_many_arguments)]
    fn designate(&mut self, w: &mut Walk, path: &mut Vec<Step>, q: QualType, ds: &[Designator], items: &[InitItem], i: &mut usize, nested: bool) -> Option<u64> {
        let (steps, sub) = match self.designator(q, &ds[0]) {
            Some(found) => found,
            None => {
                self.skip_item(&items[*i]);
                *i += 1;
                return None;
            }
        };
        let depth = path.len();
        path.extend(steps.iter().copied());
        if ds.len() > 1 {
            self.designate(w, path, sub, &ds[1..], items, i, true);
        } else {
            self.element(w, path, sub, items, i);
        }
        // A member of an anonymous member: the items after it go on in
        // the anonymous member first (`.x = 1, 2` with `struct { int x,
        // y; };`: `2` is `y`).
        for k in (1..steps.len()).rev() {
            path.truncate(depth + k);
            let inner = self.object_at(q, &steps[..k]);
            let next = steps[k].bounds().0 + 1;
            self.fill(w, path, inner, next, items, i, false, false);
        }
        path.truncate(depth);
        let at = steps[0].bounds().1;
        if nested {
            self.fill(w, path, q, at + 1, items, i, false, false);
        }
        Some(at)
    }

    /// The type of the sub-object `steps` leads to from `q`.
    fn object_at(&self, q: QualType, steps: &[Step]) -> QualType {
        steps.iter().fold(q, |t, s| self.sub_type(t, s.bounds().0))
    }

    /// Resolves one designator against object `q`: the steps it takes
    /// (more than one for a member of an anonymous member) and the
    /// sub-object's type; reports and gives `None` when it names none.
    fn designator(&mut self, q: QualType, d: &Designator) -> Option<(Vec<Step>, QualType)> {
        match d {
            Designator::Field(name) => {
                let TypeKind::Record(r) = *self.types.kind(q.ty) else {
                    // clang points at the `.`.
                    let dot = Span { lo: name.span.lo.saturating_sub(1), ..name.span };
                    let shown = self.ty_name(q);
                    self.diags.push(err("E0324", dot, format!("field designator cannot initialize a non-struct, non-union type '{shown}'")));
                    return None;
                };
                let Some(fields) = self.member_path(r, &name.name) else {
                    if self.types.records[r as usize].fields.is_some() && !self.broken_records.contains(&r) {
                        let shown = self.types.display(q.ty);
                        let mut d = err("E0324", name.span, format!("field designator '{}' does not refer to any field in type '{shown}'", name.name));
                        if let Some(best) = self.suggest_field(r, &name.name) {
                            d = d.with_note(format!("did you mean '{best}'?")).with_fixit(name.span, best);
                        }
                        self.diags.push(d);
                    }
                    return None;
                };
                let steps: Vec<Step> = fields.into_iter().map(Step::Field).collect();
                let sub = self.object_at(q, &steps);
                Some((steps, sub))
            }
            Designator::Index(e, brackets) => {
                let (len, el) = self.array_designated(q, *brackets)?;
                let at = self.designator_index(e)?;
                if let Some(n) = len
                    && at >= n
                {
                    self.diags.push(err("E0326", e.span, format!("array designator index ({at}) exceeds array bounds ({n})")));
                    return None;
                }
                Some((vec![Step::Elements(at, at)], el))
            }
            Designator::Range(r, dots, brackets) => {
                let (len, el) = self.array_designated(q, *brackets)?;
                let lo = self.designator_index(&r.0);
                let hi = self.designator_index(&r.1);
                let (lo, hi) = (lo?, hi?);
                if lo > hi {
                    let d = err("E0326", *dots, format!("array designator range [{lo}, {hi}] is empty")).with_range(r.0.span.to(r.1.span));
                    self.diags.push(d);
                    return None;
                }
                if let Some(n) = len
                    && hi >= n
                {
                    self.diags.push(err("E0326", r.1.span, format!("array designator index ({hi}) exceeds array bounds ({n})")));
                    return None;
                }
                // The typed program gives each element its own item. (The
                // walk goes on: `T a[]` still gets its length.)
                if hi - lo >= RANGE_LIMIT {
                    let d = err("E0326", *dots, format!("a GNU array range designator of {} elements is more than clc supports ({RANGE_LIMIT})", hi - lo + 1)).with_note("initialize the elements in a loop");
                    self.diags.push(d);
                }
                Some((vec![Step::Elements(lo, hi)], el))
            }
        }
    }

    /// An array designator's object: its length and element type.
    fn array_designated(&mut self, q: QualType, brackets: Span) -> Option<(Option<u64>, QualType)> {
        match *self.types.kind(q.ty) {
            TypeKind::Array(el, n) => Some((n, el)),
            _ => {
                let shown = self.ty_name(q);
                self.diags.push(err("E0326", Span { hi: brackets.lo + 1, ..brackets }, format!("array designator cannot initialize non-array type '{shown}'")));
                None
            }
        }
    }

    /// An array designator's index: an integer constant, not negative.
    fn designator_index(&mut self, e: &Expr) -> Option<u64> {
        let t = self.value(e)?;
        self.record_const(e);
        if !self.arith(t.ty).is_some_and(is_int) {
            let shown = self.rv_name(t.ty);
            self.diags.push(err("E0326", e.span, format!("integer constant expression must have integer type, not '{shown}'")));
            return None;
        }
        let v = match consteval::eval(e, self) {
            Ok(v) => v,
            Err(_) => {
                self.diags.push(err("E0326", e.span, "expression is not an integer constant expression"));
                return None;
            }
        };
        match u64::try_from(v.value) {
            Ok(at) => Some(at),
            Err(_) => {
                self.diags.push(err("E0326", e.span, format!("array designator value '{}' is negative", v.value)));
                None
            }
        }
    }

    // ------------------------------------------------------- overrides

    /// Every expanded position `path` covers (a range: each element),
    /// `None` when there are more than the budget left.
    fn expand(marks: &mut Marks, path: &[Step]) -> Option<Vec<Vec<u64>>> {
        let mut out = vec![Vec::with_capacity(path.len())];
        for s in path {
            let (lo, hi) = s.bounds();
            let n = (hi - lo + 1) as usize;
            if out.len().saturating_mul(n) > marks.budget {
                marks.budget = 0;
                return None;
            }
            out = out.into_iter().flat_map(|p| (lo..=hi).map(move |v| [p.as_slice(), &[v]].concat())).collect();
        }
        marks.budget -= out.len().min(marks.budget);
        Some(out)
    }

    /// A leaf at `path` initialized by what is at `span`: clang's
    /// -Winitializer-overrides where something initialized it before.
    fn mark(&mut self, w: &mut Walk, path: &[Step], span: Span) {
        let Some(keys) = Self::expand(&mut w.marks, path) else { return };
        for key in keys {
            // The leaf itself, an object around it initialized whole, or
            // another member of a union around it.
            let before = (1..=key.len()).find_map(|k| w.marks.done.get(&key[..k]).copied()).or_else(|| self.union_siblings(w, &key));
            if let Some(prior) = before {
                self.diags.push(Diagnostic::warning("initializer-overrides", span, "initializer overrides prior initialization of this subobject").with_note_at(prior, "previous initialization is here"));
            }
            w.marks.done.insert(key, span);
        }
    }

    /// A braced list or value for the object at `path`, after leaves in
    /// it were initialized: one warning, and the object starts afresh.
    /// Says whether something in it was initialized before.
    fn override_whole(&mut self, w: &mut Walk, path: &[Step], span: Span) -> bool {
        let Some(keys) = Self::expand(&mut w.marks, path) else { return false };
        let mut inside_any = false;
        let mut warned = false;
        for key in keys {
            let inside: Vec<(Vec<u64>, Span)> = w.marks.done.range(key.clone()..).take_while(|(k, _)| k.starts_with(&key)).map(|(k, s)| (k.clone(), *s)).collect();
            let sibling = self.union_siblings(w, &key);
            if let (Some(prior), false) = (inside.first().map(|(_, s)| *s).or(sibling), warned) {
                self.diags.push(Diagnostic::warning("initializer-overrides", span, "initializer overrides prior initialization of this subobject").with_note_at(prior, "previous initialization is here"));
                warned = true;
            }
            inside_any |= !inside.is_empty();
            for (k, _) in inside {
                w.marks.done.remove(&k);
            }
        }
        inside_any
    }
}

impl Checker<'_> {
    /// Initializing position `key` ends what other members of each union
    /// around it held: removes their marks, giving the first one's span.
    fn union_siblings(&self, w: &mut Walk, key: &[u64]) -> Option<Span> {
        let mut t = w.root;
        let mut first = None;
        for (depth, &pos) in key.iter().enumerate() {
            if let TypeKind::Record(r) = *self.types.kind(t.ty)
                && self.types.records[r as usize].is_union
            {
                let prefix = &key[..depth];
                let others: Vec<(Vec<u64>, Span)> =
                    w.marks.done.range(prefix.to_vec()..).take_while(|(k, _)| k.starts_with(prefix)).filter(|(k, _)| k.get(depth) != Some(&pos)).map(|(k, s)| (k.clone(), *s)).collect();
                for (k, s) in others {
                    first = first.or(Some(s));
                    w.marks.done.remove(&k);
                }
            }
            t = self.sub_type(t, pos);
        }
        first
    }
}

/// Does evaluating `init` store, call or run statements?
fn has_side_effects(init: &Initializer) -> bool {
    init_side_effects(init, &|_| false)
}

fn init_side_effects(init: &Initializer, pure: &dyn Fn(&str) -> bool) -> bool {
    match init {
        Initializer::Expr(e) => expr_side_effects(e, pure),
        Initializer::List { items, .. } => items.iter().any(|i| init_side_effects(&i.init, pure)),
    }
}

/// Does evaluating `e` store, call or run statements? A call of a function
/// named by an identifier for which `pure` holds does not by itself.
pub(super) fn expr_side_effects(e: &Expr, pure: &dyn Fn(&str) -> bool) -> bool {
    let rec = |x: &Expr| expr_side_effects(x, pure);
    match &e.kind {
        ExprKind::Call(f, args) => !matches!(&f.kind, ExprKind::Ident(id) if pure(&id.name)) || args.iter().any(rec),
        ExprKind::Assign(..) | ExprKind::StmtExpr(_) => true,
        ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, _) => true,
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Member { base: x, .. } => rec(x),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => rec(a) || rec(b),
        ExprKind::Cond(c, a, b) => rec(c) || a.as_deref().is_some_and(rec) || rec(b),
        ExprKind::VectorLiteral(_, xs) => xs.iter().any(rec),
        ExprKind::CompoundLiteral(_, init) => init_side_effects(init, pure),
        ExprKind::Offsetof(_, path) => offsetof_indices(path).any(rec),
        // Not evaluated, or nothing to evaluate.
        ExprKind::SizeofExpr(..) | ExprKind::SizeofType(..) | ExprKind::BlockLit(_) => false,
        ExprKind::Ident(_) | ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) | ExprKind::StringLit(_) | ExprKind::BoolLit(_) | ExprKind::Error => false,
    }
}
