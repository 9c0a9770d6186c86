//! Image builtins on the CPU target.
//!
//! An image is a pointer to the runtime's image descriptor
//! (`clc_runtime::abi::ImageDesc`, whose field offsets are taken from the
//! runtime's own type); a sampler is its 32-bit `CLK_*` encoding. The
//! query functions load descriptor fields inline.
//!
//! Reads and writes of the common formats (`clc_runtime::image::
//! INLINE_FORMATS`, named by the descriptor's `inline_format` tag) are
//! generated inline: a switch on the tag, one case per listed format whose
//! texel kind matches the call's, each loading or storing the texel and
//! converting it exactly as the runtime's sampling code does (the same
//! operations in the same order, so results are bit-identical). Reads take
//! this path for integer coordinates and for nearest filtering with
//! `CLK_ADDRESS_NONE`, `CLAMP_TO_EDGE` or `CLAMP`; with a constant sampler
//! the test folds away. Everything else (linear filtering, repeat modes,
//! other formats, depth images) calls the descriptor's `read`/`write`
//! functions through a stub of the module's own, which passes the
//! coordinates and the texel in two 16-byte slots of its frame and, on
//! x86-64, saves every register the call may change (`preserve_allcc`), so
//! the kernel around the rare call keeps its values in registers: no
//! symbol of the runtime is named, so JIT-built programs and shared
//! objects compiled ahead of time run alike.
//! An RGBA8 image copy (read and write) costs about 40 to 55 instructions
//! a texel this way, 390 to 440 through the calls (bench/README.md). The
//! SPIR-V target never comes here (its image builtins stay mangled calls).

use super::{Gen, R};
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::{Access, AddrSpace, ImageOp, Overload, Ty};
use clc_builtins::types::{Image, Scalar};
use clc_runtime::abi::{self, ImageDesc};
use clc_runtime::image::{ChannelOrder, ChannelType, INLINE_FORMATS, ImageFormat, TexelKind};
use inkwell::types::{BasicTypeEnum, VectorType};
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue, IntValue, PointerValue, VectorValue};
use inkwell::{FloatPredicate, IntPredicate};
use std::mem::offset_of;

/// LLVM's `preserve_allcc` (`CallingConv::PreserveAll`).
const CC_PRESERVE_ALL: u32 = 15;

/// The runtime function an image stub calls (see [`Gen::image_call`]).
#[derive(Clone, Copy)]
enum ImageCall {
    Read,
    Write,
}

/// Where a query function's field lives in the descriptor.
const WIDTH: u64 = offset_of!(ImageDesc, width) as u64;
const HEIGHT: u64 = offset_of!(ImageDesc, height) as u64;
const DEPTH: u64 = offset_of!(ImageDesc, depth) as u64;
const ARRAY_SIZE: u64 = offset_of!(ImageDesc, array_size) as u64;
const CHANNEL_ORDER: u64 = offset_of!(ImageDesc, channel_order) as u64;
const CHANNEL_TYPE: u64 = offset_of!(ImageDesc, channel_type) as u64;
const ROW_PITCH: u64 = offset_of!(ImageDesc, row_pitch) as u64;
const SLICE_PITCH: u64 = offset_of!(ImageDesc, slice_pitch) as u64;
const INLINE_FORMAT: u64 = offset_of!(ImageDesc, inline_format) as u64;
const ELEM_SIZE: u64 = offset_of!(ImageDesc, elem_size) as u64;
const READ: u64 = offset_of!(ImageDesc, read) as u64;
const WRITE: u64 = offset_of!(ImageDesc, write) as u64;

/// `ArgDesc::image` of a kernel parameter of image type `img` with
/// `access` (0 for multi-sample images, which the runtime refuses).
pub(super) fn arg_image_code(img: Image, access: Access) -> u32 {
    let ty = match img {
        Image::I1d => abi::IMAGE_1D,
        Image::I1dArray => abi::IMAGE_1D_ARRAY,
        Image::I1dBuffer => abi::IMAGE_1D_BUFFER,
        Image::I2d => abi::IMAGE_2D,
        Image::I2dArray => abi::IMAGE_2D_ARRAY,
        Image::I3d => abi::IMAGE_3D,
        Image::I2dDepth => abi::IMAGE_2D_DEPTH,
        Image::I2dArrayDepth => abi::IMAGE_2D_ARRAY_DEPTH,
        Image::I2dMsaa | Image::I2dArrayMsaa | Image::I2dMsaaDepth | Image::I2dArrayMsaaDepth => return 0,
    };
    ty | match access {
        Access::ReadOnly => abi::IMAGE_READ,
        Access::WriteOnly => abi::IMAGE_WRITE,
        Access::ReadWrite => abi::IMAGE_READ | abi::IMAGE_WRITE,
    }
}

/// Marks `v`, the load of an image (or pipe) argument in a work-group
/// entry, as a pointer to a whole descriptor of `size` bytes aligned to
/// `align` (`!dereferenceable`, `!align`, `!noundef`: the runtime passes
/// one that lives through the launch), so that LLVM may load descriptor
/// fields before it knows that a read or write needs them: with the
/// loads' `!invariant.load`, this lets them leave the work-item loop even
/// where they sit behind a branch.
pub(super) fn mark_descriptor<'ctx>(g: &mut Gen<'_, 'ctx>, v: BasicValueEnum<'ctx>, size: usize, align: usize) -> R<()> {
    let Some(i) = v.as_instruction_value() else { return Ok(()) };
    let i64t = g.ctx.i64_type();
    let (size, align) = (size as u64, align as u64);
    for (kind, node) in [
        ("dereferenceable", g.ctx.metadata_node(&[i64t.const_int(size, false).into()])),
        ("align", g.ctx.metadata_node(&[i64t.const_int(align, false).into()])),
        ("noundef", g.ctx.metadata_node(&[])),
    ] {
        if i.set_metadata(node, g.ctx.get_kind_id(kind)).is_err() {
            return super::ice(format!("cannot mark a descriptor argument !{kind}"));
        }
    }
    Ok(())
}

/// The texel kind of a read's result or a write's colour of element `s`.
fn texel_kind(s: Option<Scalar>) -> TexelKind {
    match s {
        Some(Scalar::Int) => TexelKind::Int,
        Some(Scalar::UInt) => TexelKind::UInt,
        _ => TexelKind::Float,
    }
}

/// `IMAGE_TEXEL_*` for texels of `kind`.
fn texel_flags(kind: TexelKind) -> u32 {
    match kind {
        TexelKind::Int => abi::IMAGE_TEXEL_INT,
        TexelKind::UInt => abi::IMAGE_TEXEL_UINT,
        TexelKind::Float => 0,
    }
}

/// The spatial dimensions of an image type the inline path serves, and
/// whether it has layers (`None`: depth and multi-sample images, whose
/// reads and writes always call the runtime).
fn inline_shape(img: Image) -> Option<(usize, bool)> {
    match img {
        Image::I1d | Image::I1dBuffer => Some((1, false)),
        Image::I1dArray => Some((1, true)),
        Image::I2d => Some((2, false)),
        Image::I2dArray => Some((2, true)),
        Image::I3d => Some((3, false)),
        _ => None,
    }
}

/// The inline formats a read or write of texels of `kind` serves, with
/// their tags: those whose channel type `kind` reads without the
/// conversions the specification leaves undefined, and that the generated
/// code converts without a call (no `HALF_FLOAT`).
fn inline_formats(kind: TexelKind) -> Vec<(u32, ImageFormat)> {
    INLINE_FORMATS.iter().filter(|f| f.ty.texel() == kind && f.ty != ChannelType::HalfFloat && !f.ty.is_packed() && !f.order.is_srgb()).map(|&f| (f.inline_tag(), f)).collect()
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// An image builtin on the CPU target.
    pub(super) fn image_builtin(&mut self, op: ImageOp, o: &Overload, args: &[ExprId], ty: TypeId) -> R<Option<BasicValueEnum<'ctx>>> {
        let Some(Ty::Image(img, _)) = o.params.first() else {
            return super::ice("an image builtin without an image parameter");
        };
        // The checker refuses multi-sample image types (no target has
        // cl_khr_gl_msaa_sharing).
        if matches!(img, Image::I2dMsaa | Image::I2dArrayMsaa | Image::I2dMsaaDepth | Image::I2dArrayMsaaDepth) {
            return super::ice("a multi-sample image");
        }
        let image = self.value(args[0])?.into_pointer_value();
        let i32t = self.ctx.i32_type();
        let v: BasicValueEnum = match op {
            ImageOp::Read { sampled } => {
                let (sampler, coord) = if sampled { (self.value(args[1])?.into_int_value(), args[2]) } else { (i32t.const_int(abi::SAMPLER_NONE as u64, false), args[1]) };
                let coord_float = o.params.last().and_then(Ty::element) == Some(Scalar::Float);
                let kind = texel_kind(o.ret.element());
                let coord = self.value(coord)?;
                let bits = self.read_texel(image, *img, sampler, coord, coord_float, kind)?;
                match &o.ret {
                    // A depth image's texel is its first lane.
                    Ty::Scalar(Scalar::Float) => {
                        let f = self.b.build_bit_cast(bits, self.ctx.f32_type().vec_type(4), "")?.into_vector_value();
                        self.b.build_extract_element(f, i32t.const_zero(), "")?
                    }
                    Ty::Vector(Scalar::Half, 4) => {
                        let f = self.b.build_bit_cast(bits, self.ctx.f32_type().vec_type(4), "")?.into_vector_value();
                        self.b.build_float_trunc(f, self.ctx.f16_type().vec_type(4), "")?.into()
                    }
                    Ty::Vector(Scalar::Float, 4) => self.b.build_bit_cast(bits, self.ctx.f32_type().vec_type(4), "")?,
                    _ => bits.into(),
                }
            }
            ImageOp::Write => {
                let coord = self.value(args[1])?;
                let color = self.value(args[2])?;
                let kind = texel_kind(o.params.get(2).and_then(Ty::element));
                let color = match o.params.get(2) {
                    Some(Ty::Vector(Scalar::Half, 4)) => self.b.build_float_ext(color.into_vector_value(), self.ctx.f32_type().vec_type(4), "")?.into(),
                    _ => color,
                };
                self.write_texel(image, *img, coord, color, kind)?;
                return Ok(None);
            }
            ImageOp::Width => self.image_size(image, WIDTH)?.into(),
            ImageOp::Height => self.image_size(image, HEIGHT)?.into(),
            ImageOp::Depth => self.image_size(image, DEPTH)?.into(),
            ImageOp::Dim => {
                let mut lanes = vec![self.image_size(image, WIDTH)?, self.image_size(image, HEIGHT)?];
                if *img == Image::I3d {
                    lanes.push(self.image_size(image, DEPTH)?);
                    lanes.push(i32t.const_zero());
                }
                let mut v = i32t.vec_type(lanes.len() as u32).get_undef();
                for (i, l) in lanes.into_iter().enumerate() {
                    v = self.b.build_insert_element(v, l, i32t.const_int(i as u64, false), "")?;
                }
                v.into()
            }
            ImageOp::ArraySize => {
                let p = self.byte_offset(image, ARRAY_SIZE)?;
                let v = self.b.build_load(self.ctx.i64_type(), p, "")?;
                let t = self.vty(ty)?;
                self.int_resize(v, t, false)
            }
            ImageOp::ChannelDataType | ImageOp::ChannelOrder => {
                let p = self.byte_offset(image, if op == ImageOp::ChannelOrder { CHANNEL_ORDER } else { CHANNEL_TYPE })?;
                self.b.build_load(i32t, p, "")?
            }
            ImageOp::NumSamples => return super::ice("a multi-sample image"),
        };
        Ok(Some(v))
    }

    /// A size field of the descriptor as an `int`.
    fn image_size(&mut self, image: PointerValue<'ctx>, off: u64) -> R<IntValue<'ctx>> {
        let v = self.desc_field(image, off, self.ctx.i64_type().into())?.into_int_value();
        Ok(self.b.build_int_truncate(v, self.ctx.i32_type(), "")?)
    }

    /// The descriptor's function pointer at `off`.
    fn descriptor_fn(&mut self, image: PointerValue<'ctx>, off: u64) -> R<PointerValue<'ctx>> {
        Ok(self.desc_field(image, off, self.ptr_ty(AddrSpace::Private).into())?.into_pointer_value())
    }

    /// The descriptor field at `off` (an image's or pipe's), loaded as
    /// `t`. The load is marked invariant (the runtime never changes those
    /// fields while kernels run), so LLVM may hoist it out of the
    /// work-item loop even past the stores of image writes or packets.
    pub(super) fn desc_field(&mut self, image: PointerValue<'ctx>, off: u64, t: BasicTypeEnum<'ctx>) -> R<BasicValueEnum<'ctx>> {
        let p = self.byte_offset(image, off)?;
        let v = self.b.build_load(t, p, "")?;
        if let Some(i) = v.as_instruction_value() {
            let kind = self.ctx.get_kind_id("invariant.load");
            let _ = i.set_metadata(self.ctx.metadata_node(&[]), kind);
        }
        Ok(v)
    }

    /// `read_image*` of texels of `kind` at `coord` (`int`s or `float`s per
    /// `coord_float`), as four lanes of bits: inline for the inline formats
    /// where the sampler allows, through the descriptor's `read` otherwise.
    fn read_texel(&mut self, image: PointerValue<'ctx>, img: Image, sampler: IntValue<'ctx>, coord: BasicValueEnum<'ctx>, coord_float: bool, kind: TexelKind) -> R<VectorValue<'ctx>> {
        let formats = inline_formats(kind);
        let Some((dims, arrayed)) = inline_shape(img).filter(|_| !formats.is_empty()) else {
            return self.general_read(image, sampler, coord, coord_float, kind);
        };
        let i32t = self.ctx.i32_type();
        let i64t = self.ctx.i64_type();
        let f32t = self.ctx.f32_type();
        let v4 = i32t.vec_type(4);
        let f = self.b.get_insert_block().and_then(|b| b.get_parent()).expect("positioned in a function");
        let fast = self.ctx.append_basic_block(f, "image.read.inline");
        let slow = self.ctx.append_basic_block(f, "image.read.call");
        let merge = self.ctx.append_basic_block(f, "image.read.done");
        let desc = self.load_desc(image, dims, arrayed)?;
        let mode = self.b.build_and(sampler, i32t.const_int(abi::SAMPLER_ADDRESS_MASK as u64, false), "")?;
        // Integer coordinates ignore the filter and normalization. Float
        // coordinates take the inline path for nearest filtering (linear
        // filtering of integer texels is nearest too) without the repeat
        // modes.
        if coord_float {
            let mut ok = self.b.build_int_compare(IntPredicate::ULE, mode, i32t.const_int(abi::SAMPLER_ADDRESS_CLAMP as u64, false), "")?;
            if kind == TexelKind::Float {
                let linear = self.b.build_and(sampler, i32t.const_int(abi::SAMPLER_FILTER_LINEAR as u64, false), "")?;
                let nearest = self.b.build_int_compare(IntPredicate::EQ, linear, i32t.const_zero(), "")?;
                ok = self.b.build_and(ok, nearest, "")?;
            }
            self.b.build_conditional_branch(ok, fast, slow)?;
        } else {
            self.b.build_unconditional_branch(fast)?;
        }

        self.b.position_at_end(fast);
        let clamp = self.b.build_int_compare(IntPredicate::EQ, mode, i32t.const_int(abi::SAMPLER_ADDRESS_CLAMP as u64, false), "")?;
        let norm_bit = self.b.build_and(sampler, i32t.const_int(abi::SAMPLER_NORMALIZED_COORDS as u64, false), "")?;
        let normalized = self.b.build_int_compare(IntPredicate::NE, norm_bit, i32t.const_zero(), "")?;
        let mut idx = [i64t.const_zero(); 3];
        let mut all_inside = self.ctx.bool_type().const_all_ones();
        for (d, &size) in desc.size.iter().enumerate().take(dims) {
            let c = coord_lane(self, coord, d)?;
            // The runtime's `address`/`nearest`: the index as an i64
            // (floats floored, saturating, NaN 0).
            let i = if coord_float {
                let c = c.into_float_value();
                let w = self.b.build_signed_int_to_float(size, f32t, "")?;
                let scaled = self.b.build_float_mul(c, w, "")?;
                let u = self.b.build_select(normalized, scaled, c, "")?.into_float_value();
                self.floor_index(u)?
            } else {
                self.b.build_int_s_extend(c.into_int_value(), i64t, "")?
            };
            let inside = self.b.build_int_compare(IntPredicate::ULT, i, size, "")?;
            all_inside = self.b.build_and(all_inside, inside, "")?;
            let last = self.b.build_int_sub(size, i64t.const_int(1, false), "")?;
            idx[d] = self.clamp_index(i, last)?;
        }
        // Outside the image under CLK_ADDRESS_CLAMP: the border colour
        // (the clamped index keeps the load inside).
        let not_clamp = self.b.build_not(clamp, "")?;
        let use_texel = self.b.build_or(not_clamp, all_inside, "")?;
        let layer = if arrayed {
            let c = coord_lane(self, coord, dims)?;
            // The runtime's `layer_index`: rint, saturating, clamped.
            let l = if coord_float {
                let r = self.rint(c.into_float_value())?;
                self.plain_intrinsic("llvm.fptosi.sat", &[i64t.into(), f32t.into()], &[r.into()])?.into_int_value()
            } else {
                self.b.build_int_s_extend(c.into_int_value(), i64t, "")?
            };
            let last = self.b.build_int_sub(desc.layers, i64t.const_int(1, false), "")?;
            self.clamp_index(l, last)?
        } else {
            i64t.const_zero()
        };
        let p = self.texel_ptr(&desc, idx, layer)?;
        let mut cases = Vec::new();
        let mut incoming: Vec<(BasicValueEnum<'ctx>, inkwell::basic_block::BasicBlock<'ctx>)> = Vec::new();
        for &(t, fmt) in &formats {
            let bb = self.ctx.append_basic_block(f, "image.read.format");
            cases.push((i32t.const_int(t as u64, false), bb));
            self.b.position_at_end(bb);
            let texel = self.load_texel(p, fmt, kind)?;
            let border = border_bits(self, fmt.order, kind);
            let v = self.b.build_select(use_texel, texel, border, "")?;
            self.b.build_unconditional_branch(merge)?;
            incoming.push((v, bb));
        }
        self.b.position_at_end(fast);
        self.b.build_switch(desc.tag, slow, &cases)?;

        self.b.position_at_end(slow);
        let v = self.general_read(image, sampler, coord, coord_float, kind)?;
        let slow_end = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(merge)?;
        incoming.push((v.into(), slow_end));

        self.b.position_at_end(merge);
        let phi = self.b.build_phi(v4, "texel")?;
        for (v, bb) in &incoming {
            phi.add_incoming(&[(v as &dyn BasicValue, *bb)]);
        }
        Ok(phi.as_basic_value().into_vector_value())
    }

    /// The general read: the descriptor's `read` function, through
    /// [`Gen::image_call`].
    fn general_read(&mut self, image: PointerValue<'ctx>, sampler: IntValue<'ctx>, coord: BasicValueEnum<'ctx>, coord_float: bool, kind: TexelKind) -> R<VectorValue<'ctx>> {
        let i32t = self.ctx.i32_type();
        let flags = texel_flags(kind) | if coord_float { abi::IMAGE_COORD_FLOAT } else { 0 };
        let f = self.descriptor_fn(image, READ)?;
        let coord = self.four_lanes(coord)?;
        let v = self.image_call(ImageCall::Read, &[f.into(), image.into(), sampler.into(), i32t.const_int(flags as u64, false).into(), coord.into()])?;
        match v {
            Some(v) => Ok(v.into_vector_value()),
            None => super::ice("an image read call without a value"),
        }
    }

    /// `write_image*` of `color` (four lanes of `kind`, or one `float` for
    /// depth images) at the integer `coord`: inline for the inline
    /// formats, through the descriptor's `write` otherwise. Writes outside
    /// the image do nothing (undefined by the specification; the runtime
    /// drops them too).
    fn write_texel(&mut self, image: PointerValue<'ctx>, img: Image, coord: BasicValueEnum<'ctx>, color: BasicValueEnum<'ctx>, kind: TexelKind) -> R<()> {
        let formats = inline_formats(kind);
        let Some((dims, arrayed)) = inline_shape(img).filter(|_| !formats.is_empty()) else {
            return self.general_write(image, coord, color, kind);
        };
        let i32t = self.ctx.i32_type();
        let i64t = self.ctx.i64_type();
        let f = self.b.get_insert_block().and_then(|b| b.get_parent()).expect("positioned in a function");
        let dispatch = self.ctx.append_basic_block(f, "image.write.inline");
        let slow = self.ctx.append_basic_block(f, "image.write.call");
        let merge = self.ctx.append_basic_block(f, "image.write.done");
        let desc = self.load_desc(image, dims, arrayed)?;
        let mut idx = [i64t.const_zero(); 3];
        let mut inside = self.ctx.bool_type().const_all_ones();
        let mut check = |g: &mut Self, lane: usize, size: IntValue<'ctx>| -> R<IntValue<'ctx>> {
            let c = coord_lane(g, coord, lane)?.into_int_value();
            let i = g.b.build_int_s_extend(c, i64t, "")?;
            let ok = g.b.build_int_compare(IntPredicate::ULT, i, size, "")?;
            inside = g.b.build_and(inside, ok, "")?;
            Ok(i)
        };
        for (d, slot) in idx.iter_mut().enumerate().take(dims) {
            *slot = check(self, d, desc.size[d])?;
        }
        let layer = if arrayed { check(self, dims, desc.layers)? } else { i64t.const_zero() };
        self.b.build_conditional_branch(inside, dispatch, merge)?;

        self.b.position_at_end(dispatch);
        let p = self.texel_ptr(&desc, idx, layer)?;
        let color4 = color.into_vector_value();
        // The normalized integer formats (their tags a range, see
        // `INLINE_FORMATS`) share one conversion of all four lanes, with
        // the format's largest value chosen by its tag; a switch then
        // stores the lanes each keeps. The other formats convert in their
        // own cases. A write of the commonest formats thus tests one range
        // and dispatches once, as through one switch, and LLVM generates
        // the conversion once instead of once per format.
        let unorm: Vec<_> = formats.iter().filter_map(|&(t, fmt)| Some((t, fmt, unorm_max(fmt, kind)?))).collect();
        let others = self.ctx.append_basic_block(f, "image.write.format.other");
        let range = unorm_range(&unorm);
        match range {
            Some((lo, n)) => {
                let shared = self.ctx.append_basic_block(f, "image.write.unorm");
                let rel = self.b.build_int_sub(desc.tag, i32t.const_int(lo as u64, false), "")?;
                let is_unorm = self.b.build_int_compare(IntPredicate::ULT, rel, i32t.const_int(n as u64, false), "")?;
                self.b.build_conditional_branch(is_unorm, shared, others)?;
                self.b.position_at_end(shared);
                let first_max = unorm[0].2;
                let mut hi = splat_f32(self, 4, first_max as f64);
                for &(t, _, max) in &unorm[1..] {
                    if max != first_max {
                        let is = self.b.build_int_compare(IntPredicate::EQ, desc.tag, i32t.const_int(t as u64, false), "")?;
                        hi = self.b.build_select(is, splat_f32(self, 4, max as f64), hi, "")?.into_vector_value();
                    }
                }
                let converted = self.unorm_convert(color4, hi)?;
                let mut stores = Vec::new();
                for &(t, fmt, _) in &unorm {
                    let bb = self.ctx.append_basic_block(f, "image.write.unorm.format");
                    stores.push((i32t.const_int(t as u64, false), bb));
                    self.b.position_at_end(bb);
                    self.store_channels(p, fmt, converted)?;
                    self.b.build_unconditional_branch(merge)?;
                }
                // Only the range's tags come here: no default (LLVM then
                // dispatches through a table without a range check).
                let never = self.ctx.append_basic_block(f, "image.write.unorm.never");
                self.b.position_at_end(never);
                self.b.build_unreachable()?;
                self.b.position_at_end(shared);
                self.b.build_switch(desc.tag, never, &stores)?;
            }
            None => {
                self.b.build_unconditional_branch(others)?;
            }
        }
        // Every format outside the range in a case of its own (the
        // normalized ones too, should their tags not be a range).
        let mut cases = Vec::new();
        for &(t, fmt) in &formats {
            if range.is_some() && unorm.iter().any(|u| u.1 == fmt) {
                continue;
            }
            let bb = self.ctx.append_basic_block(f, "image.write.format");
            cases.push((i32t.const_int(t as u64, false), bb));
            self.b.position_at_end(bb);
            self.store_texel(p, fmt, kind, color4)?;
            self.b.build_unconditional_branch(merge)?;
        }
        self.b.position_at_end(others);
        self.b.build_switch(desc.tag, slow, &cases)?;

        self.b.position_at_end(slow);
        self.general_write(image, coord, color, kind)?;
        self.b.build_unconditional_branch(merge)?;
        self.b.position_at_end(merge);
        Ok(())
    }

    /// The general write: the descriptor's `write` function, through
    /// [`Gen::image_call`].
    fn general_write(&mut self, image: PointerValue<'ctx>, coord: BasicValueEnum<'ctx>, color: BasicValueEnum<'ctx>, kind: TexelKind) -> R<()> {
        let i32t = self.ctx.i32_type();
        let f = self.descriptor_fn(image, WRITE)?;
        let coord = self.four_lanes(coord)?;
        let color = self.four_lanes(color)?;
        self.image_call(ImageCall::Write, &[f.into(), image.into(), i32t.const_int(texel_flags(kind) as u64, false).into(), coord.into(), color.into()])?;
        Ok(())
    }

    /// `v` (one to four 32-bit lanes: coordinates, a colour or a depth)
    /// as the bits of four lanes, the missing ones 0 (the runtime reads
    /// only the lanes the image type has).
    fn four_lanes(&mut self, v: BasicValueEnum<'ctx>) -> R<VectorValue<'ctx>> {
        let i32t = self.ctx.i32_type();
        let v4 = i32t.vec_type(4);
        let zero = v4.const_zero();
        if !v.is_vector_value() {
            let bits = self.b.build_bit_cast(v, i32t, "")?.into_int_value();
            return Ok(self.b.build_insert_element(zero, bits, i32t.const_zero(), "")?);
        }
        let n = v.into_vector_value().get_type().get_size();
        let bits = self.b.build_bit_cast(v, i32t.vec_type(n), "")?.into_vector_value();
        if n == 4 {
            return Ok(bits);
        }
        // Lanes of `bits`, then zeros (lanes of the second operand).
        let mask: Vec<_> = (0..4).map(|l| i32t.const_int(if l < n { l } else { n } as u64, false)).collect();
        let zero_n = i32t.vec_type(n).const_zero();
        Ok(self.b.build_shuffle_vector(bits, zero_n, VectorType::const_vector(&mask), "")?)
    }

    /// Calls the runtime's `read` or `write` function `args[0]` with the
    /// other arguments (the coordinates and a colour as four lanes each)
    /// through this module's internal stub for it, which passes them in
    /// 16-byte slots of its own frame. On x86-64 the stub follows the
    /// `preserve_all` convention (it saves every register the runtime's C
    /// function may change), so the kernel's values stay in registers across
    /// the rare call: with C calls on the paths to the runtime, register
    /// allocation of 027's `rw_image` took 1.8 times as long as through the
    /// stubs (bench/README.md) and the slots lived in the kernel's frame.
    fn image_call(&mut self, which: ImageCall, args: &[inkwell::values::BasicMetadataValueEnum<'ctx>]) -> R<Option<BasicValueEnum<'ctx>>> {
        let stub = self.image_call_stub(which)?;
        let call = self.b.build_call(stub, args, "")?;
        call.set_call_convention(stub.get_call_conventions());
        Ok(call.try_as_basic_value().basic())
    }

    /// The stub [`Gen::image_call`] calls, defined on first use.
    fn image_call_stub(&mut self, which: ImageCall) -> R<inkwell::values::FunctionValue<'ctx>> {
        let name = match which {
            ImageCall::Read => "__clc_image_read_call",
            ImageCall::Write => "__clc_image_write_call",
        };
        if let Some(f) = self.module.get_function(name) {
            return Ok(f);
        }
        let i32t = self.ctx.i32_type();
        let v4 = i32t.vec_type(4);
        let ptr = self.ptr_ty(AddrSpace::Private);
        let image = self.ptr_ty(AddrSpace::Global);
        let fty = match which {
            ImageCall::Read => v4.fn_type(&[ptr.into(), image.into(), i32t.into(), i32t.into(), v4.into()], false),
            ImageCall::Write => self.ctx.void_type().fn_type(&[ptr.into(), image.into(), i32t.into(), v4.into(), v4.into()], false),
        };
        let stub = self.module.add_function(name, fty, Some(inkwell::module::Linkage::Internal));
        for attr in ["noinline", "nounwind", "cold"] {
            self.add_fn_attr(stub, attr);
        }
        if self.opts.target.is_x86_64() {
            stub.set_call_conventions(CC_PRESERVE_ALL);
        }
        let here = self.b.get_insert_block();
        let entry = self.ctx.append_basic_block(stub, "entry");
        self.b.position_at_end(entry);
        let slot = |g: &mut Self, name: &str| -> R<PointerValue<'ctx>> {
            let p = g.b.build_alloca(v4, name)?;
            if let Some(i) = p.as_instruction() {
                let _ = i.set_alignment(16);
            }
            Ok(p)
        };
        let ps = stub.get_params();
        let (f, image) = (ps[0].into_pointer_value(), ps[1]);
        let cslot = slot(self, "coord")?;
        let tslot = slot(self, "texel")?;
        match which {
            ImageCall::Read => {
                self.b.build_store(cslot, ps[4])?;
                let fty = self.ctx.void_type().fn_type(&[image.get_type().into(), i32t.into(), i32t.into(), ptr.into(), ptr.into()], false);
                self.b.build_indirect_call(fty, f, &[image.into(), ps[2].into(), ps[3].into(), cslot.into(), tslot.into()], "")?;
                let v = self.b.build_load(v4, tslot, "")?;
                self.b.build_return(Some(&v))?;
            }
            ImageCall::Write => {
                self.b.build_store(cslot, ps[3])?;
                self.b.build_store(tslot, ps[4])?;
                let fty = self.ctx.void_type().fn_type(&[image.get_type().into(), i32t.into(), ptr.into(), ptr.into()], false);
                self.b.build_indirect_call(fty, f, &[image.into(), ps[2].into(), cslot.into(), tslot.into()], "")?;
                self.b.build_return(None)?;
            }
        }
        if let Some(h) = here {
            self.b.position_at_end(h);
        }
        Ok(stub)
    }

    /// `floor(u)` as an index, as far as addressing can tell: exact in
    /// [-1, 2^62], -1 below (every negative index is outside, like -1), 2^62
    /// above (outside, like every larger one; sizes are smaller), 0 for
    /// NaN, as the runtime's saturating `floor(u) as i64`. Clamping first
    /// makes the conversion exact, so it needs neither saturation (branches
    /// per coordinate) nor `floor` (a C library call without SSE4.1): the
    /// truncated value, less one where it lies above `u`.
    fn floor_index(&mut self, u: FloatValue<'ctx>) -> R<IntValue<'ctx>> {
        let f32t = self.ctx.f32_type();
        let i64t = self.ctx.i64_type();
        let (lo, hi) = (f32t.const_float(-1.0), f32t.const_float(2f64.powi(62)));
        let below = self.b.build_float_compare(FloatPredicate::OLT, u, lo, "")?;
        let u = self.b.build_select(below, lo, u, "")?.into_float_value();
        let above = self.b.build_float_compare(FloatPredicate::OGT, u, hi, "")?;
        let u = self.b.build_select(above, hi, u, "")?.into_float_value();
        let nan = self.b.build_float_compare(FloatPredicate::UNO, u, u, "")?;
        let u = self.b.build_select(nan, f32t.const_zero(), u, "")?.into_float_value();
        let t = self.b.build_float_to_signed_int(u, i64t, "")?;
        let back = self.b.build_signed_int_to_float(t, f32t, "")?;
        let over = self.b.build_float_compare(FloatPredicate::OGT, back, u, "")?;
        let one = self.b.build_int_z_extend(over, i64t, "")?;
        Ok(self.b.build_int_sub(t, one, "")?)
    }

    /// `i` clamped to [0, last].
    fn clamp_index(&mut self, i: IntValue<'ctx>, last: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let i64t = self.ctx.i64_type();
        let lo = self.plain_intrinsic("llvm.smax", &[i64t.into()], &[i.into(), i64t.const_zero().into()])?;
        Ok(self.plain_intrinsic("llvm.smin", &[i64t.into()], &[lo, last.into()])?.into_int_value())
    }

    /// The descriptor fields the inline path uses, loaded where it starts:
    /// before its first branch, so that LLVM may hoist them out of the
    /// work-item loop (a load after a branch might not be executed, so it
    /// stays where it is).
    fn load_desc(&mut self, image: PointerValue<'ctx>, dims: usize, arrayed: bool) -> R<InlineDesc<'ctx>> {
        let i64t = self.ctx.i64_type();
        let one = i64t.const_int(1, false);
        let mut size = [one; 3];
        for (d, off) in [WIDTH, HEIGHT, DEPTH].into_iter().enumerate().take(dims) {
            size[d] = self.desc_field(image, off, i64t.into())?.into_int_value();
        }
        let layers = if arrayed { self.desc_field(image, ARRAY_SIZE, i64t.into())?.into_int_value() } else { one };
        let row = if dims > 1 { self.desc_field(image, ROW_PITCH, i64t.into())?.into_int_value() } else { i64t.const_zero() };
        let slice = if dims > 2 || arrayed { self.desc_field(image, SLICE_PITCH, i64t.into())?.into_int_value() } else { i64t.const_zero() };
        let data = self.desc_field(image, 0, self.ptr_ty(AddrSpace::Private).into())?.into_pointer_value();
        let tag = self.desc_field(image, INLINE_FORMAT, self.ctx.i32_type().into())?.into_int_value();
        let elem = self.desc_field(image, ELEM_SIZE, self.ctx.i32_type().into())?.into_int_value();
        let elem = self.b.build_int_z_extend(elem, i64t, "")?;
        Ok(InlineDesc { data, size, layers, row, slice, tag, elem })
    }

    /// The address of texel (x, y, z) of `layer` (the runtime's
    /// `View::texel`), with the descriptor's texel size: computed once
    /// before the switch over the inline formats, not in each case (the
    /// cases' copies of the address arithmetic were a good part of what
    /// LLVM's known-bits analyses went over).
    fn texel_ptr(&mut self, desc: &InlineDesc<'ctx>, idx: [IntValue<'ctx>; 3], layer: IntValue<'ctx>) -> R<PointerValue<'ctx>> {
        let y = self.b.build_int_nuw_mul(idx[1], desc.row, "")?;
        let zl = self.b.build_int_nuw_add(idx[2], layer, "")?;
        let z = self.b.build_int_nuw_mul(zl, desc.slice, "")?;
        let rest = self.b.build_int_nuw_add(y, z, "")?;
        let xo = self.b.build_int_nuw_mul(idx[0], desc.elem, "")?;
        let off = self.b.build_int_nuw_add(xo, rest, "")?;
        // SAFETY: address arithmetic only; the indices are in range.
        Ok(unsafe { self.b.build_in_bounds_gep(self.ctx.i8_type(), desc.data, &[off], "")? })
    }

    /// The stored channels' vector type of `fmt` and their alignment.
    fn channel_vec(&self, fmt: ImageFormat) -> (VectorType<'ctx>, u32) {
        let n = fmt.order.channels() as u32;
        let t = match fmt.ty {
            ChannelType::Float => return (self.ctx.f32_type().vec_type(n), 4),
            ChannelType::UnormInt8 | ChannelType::SnormInt8 | ChannelType::SignedInt8 | ChannelType::UnsignedInt8 => self.ctx.i8_type(),
            ChannelType::UnormInt16 | ChannelType::SnormInt16 | ChannelType::SignedInt16 | ChannelType::UnsignedInt16 | ChannelType::HalfFloat | ChannelType::UnormShort565 | ChannelType::UnormShort555 => self.ctx.i16_type(),
            ChannelType::SignedInt32 | ChannelType::UnsignedInt32 | ChannelType::UnormInt101010 => self.ctx.i32_type(),
        };
        (t.vec_type(n), fmt.ty.size() as u32)
    }

    /// The texel at `p` as the runtime's `View::fetch` returns it: four
    /// lanes of `kind` (as bits), each channel converted by section 8.3
    /// exactly as `load_channel` converts it, missing ones 0 (alpha 1).
    fn load_texel(&mut self, p: PointerValue<'ctx>, fmt: ImageFormat, kind: TexelKind) -> R<BasicValueEnum<'ctx>> {
        let (vt, align) = self.channel_vec(fmt);
        let n = fmt.order.channels() as u32;
        let raw = self.b.build_load(vt, p, "")?;
        if let Some(i) = raw.as_instruction_value() {
            let _ = i.set_alignment(align);
        }
        let raw = raw.into_vector_value();
        let f32n = self.ctx.f32_type().vec_type(n);
        let i32n = self.ctx.i32_type().vec_type(n);
        // `x as f32 / scale` (an exact division, as the runtime's).
        let scaled = |g: &mut Self, signed: bool, scale: f64| -> R<VectorValue<'ctx>> {
            let f = if signed { g.b.build_signed_int_to_float(raw, f32n, "")? } else { g.b.build_unsigned_int_to_float(raw, f32n, "")? };
            Ok(g.b.build_float_div(f, splat_f32(g, n, scale), "")?)
        };
        let ch: VectorValue = match fmt.ty {
            ChannelType::UnormInt8 => scaled(self, false, 255.0)?,
            ChannelType::UnormInt16 => scaled(self, false, 65535.0)?,
            ChannelType::SnormInt8 | ChannelType::SnormInt16 => {
                let v = scaled(self, true, if fmt.ty == ChannelType::SnormInt8 { 127.0 } else { 32767.0 })?;
                // `.max(-1.0)`: the most negative value is -1 too.
                let m1 = splat_f32(self, n, -1.0);
                let lt = self.b.build_float_compare(FloatPredicate::OLT, v, m1, "")?;
                self.b.build_select(lt, m1, v, "")?.into_vector_value()
            }
            ChannelType::Float => raw,
            ChannelType::SignedInt8 | ChannelType::SignedInt16 => self.b.build_int_s_extend(raw, i32n, "")?,
            ChannelType::UnsignedInt8 | ChannelType::UnsignedInt16 => self.b.build_int_z_extend(raw, i32n, "")?,
            ChannelType::SignedInt32 | ChannelType::UnsignedInt32 => raw,
            ChannelType::HalfFloat | ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010 => return super::ice(format!("a {} image read inline", fmt.ty.name())),
        };
        let ch = self.b.build_bit_cast(ch, i32n, "")?.into_vector_value();
        let i32t = self.ctx.i32_type();
        let one = if kind == TexelKind::Float { 1.0f32.to_bits() } else { 1 };
        let defaults = [0, 0, 0, one].map(|v| i32t.const_int(v as u64, false));
        // Each lane of the texel is a channel or its default: one shuffle
        // of the channels (widened to four lanes) and the defaults.
        // Intensity repeats its channel in every lane, luminance in r, g, b.
        let lanes = fmt.order.lanes();
        let placed = |l: usize| lanes.iter().position(|&x| x == l);
        let source = match fmt.order {
            ChannelOrder::Intensity => [placed(0); 4],
            ChannelOrder::Luminance => [placed(0), placed(0), placed(0), None],
            _ => [0, 1, 2, 3].map(placed),
        };
        let wide = if n == 4 {
            ch
        } else {
            let mask: Vec<_> = (0..4).map(|l| if l < n { i32t.const_int(l as u64, false) } else { i32t.get_undef() }).collect();
            self.b.build_shuffle_vector(ch, ch, VectorType::const_vector(&mask), "")?
        };
        let mask = source.iter().enumerate().map(|(l, c)| i32t.const_int(c.unwrap_or(4 + l) as u64, false)).collect::<Vec<_>>();
        let out = self.b.build_shuffle_vector(wide, VectorType::const_vector(&defaults), VectorType::const_vector(&mask), "")?;
        Ok(out.into())
    }

    /// Stores `color` (four lanes of `kind`) as the texel at `p`, each
    /// channel converted by section 8.3 exactly as the runtime's
    /// `store_channel` converts it.
    fn store_texel(&mut self, p: PointerValue<'ctx>, fmt: ImageFormat, kind: TexelKind, color: VectorValue<'ctx>) -> R<()> {
        let (_, align) = self.channel_vec(fmt);
        let i32t = self.ctx.i32_type();
        let mask: Vec<_> = fmt.order.lanes().iter().map(|&l| i32t.const_int(l as u64, false)).collect();
        let ch = self.b.build_shuffle_vector(color, color.get_type().get_undef(), VectorType::const_vector(&mask), "")?;
        let v: BasicValueEnum = match (fmt.ty, kind) {
            (ChannelType::Float, TexelKind::Float) => ch.into(),
            (ChannelType::UnormInt8 | ChannelType::UnormInt16, TexelKind::Float) => {
                let hi = splat_f32(self, 4, if fmt.ty == ChannelType::UnormInt8 { 255.0 } else { 65535.0 });
                let c = self.unorm_convert(color, hi)?;
                return self.store_channels(p, fmt, c);
            }
            // Integer writes saturate (`convert_<T>_sat`).
            // (The packs saturate signed lanes themselves.)
            (ChannelType::SignedInt8 | ChannelType::SignedInt16, TexelKind::Int) if self.baseline_image_code() && ch.get_type().get_size() == 4 => self.stored_lanes(ch, fmt)?,
            (ChannelType::SignedInt8 | ChannelType::SignedInt16, TexelKind::Int) => {
                let (lo, hi) = if fmt.ty == ChannelType::SignedInt8 { (-128, 127) } else { (-32768, 32767) };
                let i = self.clamp_lanes(ch, lo, hi, true)?;
                self.stored_lanes(i, fmt)?
            }
            (ChannelType::UnsignedInt8 | ChannelType::UnsignedInt16, TexelKind::UInt) => {
                let i = self.clamp_lanes(ch, 0, if fmt.ty == ChannelType::UnsignedInt8 { 255 } else { 65535 }, false)?;
                self.stored_lanes(i, fmt)?
            }
            (ChannelType::SignedInt32, TexelKind::Int) | (ChannelType::UnsignedInt32, TexelKind::UInt) => ch.into(),
            _ => return super::ice(format!("{fmt:?} written inline with {kind:?} texels")),
        };
        let st = self.b.build_store(p, v)?;
        let _ = st.set_alignment(align);
        Ok(())
    }

    /// The four lanes of the `float` colour `color` as a normalized
    /// integer format whose largest value is `hi` (a splat) stores them:
    /// `sat_rte(x * hi, 0, hi)`, clamped, rounded to nearest even, NaN to
    /// 0, as the runtime's `store_channel`. Clamped first, as floats: the
    /// ordered comparison sends NaN and negatives to 0, and the values of
    /// [0, hi] then convert exactly, with no saturation (which LLVM expands
    /// lane by lane) and no `roundeven` (a C library call on baseline
    /// x86-64): for baseline x86-64 ([`Gen::baseline_image_code`]) SSE2's
    /// `cvtps2dq`, which rounds to nearest even in the floating-point
    /// environment OpenCL C cannot change; for this machine adding and
    /// subtracting 2^23, then `fptosi`. Two selects, each on one
    /// comparison: LLVM's optimiser analyses the floating-point classes of
    /// select chains again at every comparison, and the longer chain of the
    /// runtime's steps (rounding, then clamping, then NaN) cost more to
    /// optimise than the rest of a kernel that writes images.
    fn unorm_convert(&mut self, color: VectorValue<'ctx>, hi: VectorValue<'ctx>) -> R<VectorValue<'ctx>> {
        let zero = splat_f32(self, 4, 0.0);
        let x = self.b.build_float_mul(color, hi, "")?;
        let positive = self.b.build_float_compare(FloatPredicate::OGT, x, zero, "")?;
        let c = self.b.build_select(positive, x, zero, "")?.into_vector_value();
        let below = self.b.build_float_compare(FloatPredicate::OLT, c, hi, "")?;
        let c = self.b.build_select(below, c, hi, "")?.into_vector_value();
        if self.baseline_image_code() {
            return Ok(self.plain_intrinsic("llvm.x86.sse2.cvtps2dq", &[], &[c.into()])?.into_vector_value());
        }
        let m = splat_f32(self, 4, 8_388_608.0);
        let up = self.b.build_float_add(c, m, "")?;
        let r = self.b.build_float_sub(up, m, "")?;
        Ok(self.b.build_float_to_signed_int(r, self.ctx.i32_type().vec_type(4), "")?)
    }

    /// Stores the channels of `fmt` from `lanes` (four `int` lanes, each
    /// already converted to a stored value) as the texel at `p`.
    fn store_channels(&mut self, p: PointerValue<'ctx>, fmt: ImageFormat, lanes: VectorValue<'ctx>) -> R<()> {
        let (_, align) = self.channel_vec(fmt);
        let i32t = self.ctx.i32_type();
        let mask: Vec<_> = fmt.order.lanes().iter().map(|&l| i32t.const_int(l as u64, false)).collect();
        let ch = self.b.build_shuffle_vector(lanes, lanes.get_type().get_undef(), VectorType::const_vector(&mask), "")?;
        let v = self.stored_lanes(ch, fmt)?;
        let st = self.b.build_store(p, v)?;
        let _ = st.set_alignment(align);
        Ok(())
    }

    /// `ch`, the `int` lanes of `fmt`'s channels (each a stored value, or
    /// for signed channels any value where the packs saturate, see
    /// [`Gen::packed_channels`]), as the value to store: packed, or
    /// narrowed to the channel type, or as they are for 32-bit channels.
    fn stored_lanes(&mut self, ch: VectorValue<'ctx>, fmt: ImageFormat) -> R<BasicValueEnum<'ctx>> {
        let (vt, _) = self.channel_vec(fmt);
        Ok(match self.packed_channels(ch, fmt.ty)? {
            Some(packed) => packed,
            None if vt.get_element_type().into_int_type().get_bit_width() < 32 => self.b.build_int_truncate(ch, vt, "")?.into(),
            None => ch.into(),
        })
    }

    /// Is the code for baseline x86-64 (what `clc -c` makes without
    /// `-march=native`), not for the machine clc runs on (the JIT)? Its
    /// image writes narrow lanes with SSE2's packs
    /// ([`Gen::packed_channels`]) and round with `cvtps2dq`
    /// ([`Gen::unorm_convert`]): an RGBA8 image copy compiled so ran 15 %
    /// faster than with LLVM's `trunc` and rounding by 2^23, and its code
    /// generation costs a fifth as much. Code for this machine keeps
    /// those: with AVX-512 a `trunc` is one `vpmovdb`, and the same copy ran
    /// 9 % slower with `vcvtps2dq` there (bench/README.md). Not for 32-bit
    /// x86 (`i686`), whose baseline has no SSE2: LLVM cannot select SSE2's
    /// intrinsics there (it aborted on every image write).
    fn baseline_image_code(&self) -> bool {
        !self.opts.host_cpu && self.opts.target.is_x86_64()
    }

    /// Four channels of 8 or 16 bits (`ty`) from the `int` lanes of `ch`,
    /// packed into one 32- or 64-bit integer, lane 0 first, with SSE2's
    /// saturating packs in baseline code ([`Gen::baseline_image_code`]):
    /// each lane must be within the channel type's range, except for
    /// signed 8- and 16-bit channels, which the packs saturate to it. On
    /// baseline x86-64 LLVM lowers a `trunc` of four lanes to the same
    /// packs (or a mask and packs), but its shuffle combining takes four to
    /// five times as long to get there: about 1.2M instructions of code
    /// generation for a `trunc` to bytes, 0.24M for the packs
    /// (bench/README.md). `None` for other channel types and lane counts,
    /// and in code for this machine.
    fn packed_channels(&mut self, ch: VectorValue<'ctx>, ty: ChannelType) -> R<Option<BasicValueEnum<'ctx>>> {
        if !self.baseline_image_code() || ch.get_type().get_size() != 4 {
            return Ok(None);
        }
        let words = |g: &mut Self, v: VectorValue<'ctx>| -> R<VectorValue<'ctx>> { Ok(g.plain_intrinsic("llvm.x86.sse2.packssdw.128", &[], &[v.into(), v.into()])?.into_vector_value()) };
        let (packed, bits) = match ty {
            ChannelType::UnormInt8 | ChannelType::UnsignedInt8 | ChannelType::SignedInt8 => {
                let w = words(self, ch)?;
                let pack = if ty == ChannelType::SignedInt8 { "llvm.x86.sse2.packsswb.128" } else { "llvm.x86.sse2.packuswb.128" };
                (self.plain_intrinsic(pack, &[], &[w.into(), w.into()])?.into_vector_value(), 32)
            }
            ChannelType::SignedInt16 => (words(self, ch)?, 64),
            // [0, 65535] moved to [-32768, 32767] for the signed pack, and
            // back by flipping each word's top bit.
            ChannelType::UnormInt16 | ChannelType::UnsignedInt16 => {
                let half = VectorType::const_vector(&[self.ctx.i32_type().const_int(32768, false); 4]);
                let shifted = self.b.build_int_sub(ch, half, "")?;
                let w = words(self, shifted)?;
                let top = VectorType::const_vector(&[self.ctx.i16_type().const_int(0x8000, false); 8]);
                (self.b.build_xor(w, top, "")?, 64)
            }
            _ => return Ok(None),
        };
        let t = if bits == 32 { self.ctx.i32_type().vec_type(4) } else { self.ctx.i64_type().vec_type(2) };
        let as_ints = self.b.build_bit_cast(packed, t, "")?.into_vector_value();
        Ok(Some(self.b.build_extract_element(as_ints, self.ctx.i32_type().const_zero(), "")?))
    }

    /// Every lane of `v` clamped to [lo, hi] (signed, or unsigned with
    /// `lo` 0).
    fn clamp_lanes(&mut self, v: VectorValue<'ctx>, lo: i64, hi: i64, signed: bool) -> R<VectorValue<'ctx>> {
        let t = v.get_type();
        let n = t.get_size();
        let c = |x: i64| VectorType::const_vector(&vec![self.ctx.i32_type().const_int(x as u64, true); n as usize]);
        let (lo_c, hi_c) = (c(lo), c(hi));
        if signed {
            let a = self.plain_intrinsic("llvm.smax", &[t.into()], &[v.into(), lo_c.into()])?;
            Ok(self.plain_intrinsic("llvm.smin", &[t.into()], &[a, hi_c.into()])?.into_vector_value())
        } else {
            Ok(self.plain_intrinsic("llvm.umin", &[t.into()], &[v.into(), hi_c.into()])?.into_vector_value())
        }
    }

    /// The runtime's `rint` of a float: ties to even by adding and
    /// subtracting 2^23 to magnitudes below it, without the C library
    /// call `roundeven` becomes on baseline x86-64.
    fn rint(&mut self, f: FloatValue<'ctx>) -> R<FloatValue<'ctx>> {
        let t = self.ctx.f32_type();
        let m = t.const_float(8_388_608.0);
        let a = self.plain_intrinsic("llvm.fabs", &[t.into()], &[f.into()])?.into_float_value();
        let up = self.b.build_float_add(a, m, "")?;
        let down = self.b.build_float_sub(up, m, "")?;
        let r = self.plain_intrinsic("llvm.copysign", &[t.into()], &[down.into(), f.into()])?;
        let small = self.b.build_float_compare(FloatPredicate::OLT, a, m, "")?;
        Ok(self.b.build_select(small, r, f.into(), "")?.into_float_value())
    }

    /// Calls an LLVM intrinsic without the fast-math flags `-cl-fast-
    /// relaxed-math` puts on the program's own operations: the inline
    /// image path must give what the runtime's code gives.
    fn plain_intrinsic(&mut self, name: &str, tys: &[BasicTypeEnum<'ctx>], args: &[BasicValueEnum<'ctx>]) -> R<BasicValueEnum<'ctx>> {
        let Some(intr) = inkwell::intrinsics::Intrinsic::find(name) else { return super::ice(format!("unknown intrinsic {name}")) };
        let Some(decl) = intr.get_declaration(&self.module, tys) else { return super::ice(format!("cannot declare {name}")) };
        let vals: Vec<inkwell::values::BasicMetadataValueEnum> = args.iter().map(|a| (*a).into()).collect();
        let call = self.b.build_call(decl, &vals, "")?;
        match call.try_as_basic_value().basic() {
            Some(v) => Ok(v),
            None => super::ice(format!("{name} has no value")),
        }
    }
}

/// The descriptor fields of an inline read or write (sizes 1 and pitches
/// 0 where the image type has no such dimension).
struct InlineDesc<'ctx> {
    data: PointerValue<'ctx>,
    size: [IntValue<'ctx>; 3],
    layers: IntValue<'ctx>,
    row: IntValue<'ctx>,
    slice: IntValue<'ctx>,
    tag: IntValue<'ctx>,
    /// Bytes of one texel.
    elem: IntValue<'ctx>,
}

/// Lane `i` of a coordinate (a scalar is lane 0).
fn coord_lane<'ctx>(g: &mut Gen<'_, 'ctx>, coord: BasicValueEnum<'ctx>, i: usize) -> R<BasicValueEnum<'ctx>> {
    match coord {
        BasicValueEnum::VectorValue(v) => Ok(g.b.build_extract_element(v, g.ctx.i32_type().const_int(i as u64, false), "")?),
        s if i == 0 => Ok(s),
        _ => super::ice("a scalar image coordinate with more than one lane"),
    }
}

/// `n` lanes of `x` as a `float` vector constant.
fn splat_f32<'ctx>(g: &Gen<'_, 'ctx>, n: u32, x: f64) -> VectorValue<'ctx> {
    VectorType::const_vector(&vec![g.ctx.f32_type().const_float(x); n as usize])
}

/// The largest stored value of `fmt`'s channels where writes of texels of
/// `kind` convert to them as normalized integers (`float` texels of
/// `UNORM_INT8` and `UNORM_INT16`), which the inline path converts once
/// for all such formats.
fn unorm_max(fmt: ImageFormat, kind: TexelKind) -> Option<u64> {
    match (fmt.ty, kind) {
        (ChannelType::UnormInt8, TexelKind::Float) => Some(255),
        (ChannelType::UnormInt16, TexelKind::Float) => Some(65535),
        _ => None,
    }
}

/// The first tag and the number of `unorm`'s formats (tag, format,
/// largest value), if their tags are consecutive.
fn unorm_range(unorm: &[(u32, ImageFormat, u64)]) -> Option<(u32, u32)> {
    let lo = unorm.first()?.0;
    unorm.iter().enumerate().all(|(i, u)| u.0 == lo + i as u32).then_some((lo, unorm.len() as u32))
}

/// The border colour of `order` for texels of `kind` as bits (the
/// runtime's `View::border`).
fn border_bits<'ctx>(g: &Gen<'_, 'ctx>, order: ChannelOrder, kind: TexelKind) -> BasicValueEnum<'ctx> {
    let one = if kind == TexelKind::Float { 1.0f32.to_bits() } else { 1 };
    let a = if order.has_alpha() { 0 } else { one };
    VectorType::const_vector(&[0, 0, 0, a].map(|v| g.ctx.i32_type().const_int(v as u64, false))).into()
}
