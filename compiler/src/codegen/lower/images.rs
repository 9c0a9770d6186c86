//! Image builtins on the CPU target.
//!
//! An image is a pointer to the runtime's image descriptor
//! (`clc_runtime::abi::ImageDesc`, whose field offsets are taken from the
//! runtime's own type); a sampler is its 32-bit `CLK_*` encoding. The
//! query functions load descriptor fields inline. Reads and writes call the
//! descriptor's `read`/`write` functions (the runtime's sampling code),
//! passing the coordinates and the texel through two 16-byte slots in the
//! entry block: no symbol of the runtime is named, so JIT-built programs
//! and shared objects compiled ahead of time run alike. The SPIR-V target
//! never comes here (its image builtins stay mangled calls).

use super::{Gen, R};
use crate::source::Span;
use crate::sema::hir::ExprId;
use crate::sema::types::TypeId;
use clc_builtins::functions::{Access, AddrSpace, ImageOp, Overload, Ty};
use clc_builtins::types::{Image, Scalar};
use clc_runtime::abi::{self, ImageDesc};
use inkwell::types::BasicType;
use inkwell::values::{BasicValueEnum, IntValue, PointerValue};
use std::mem::offset_of;

/// Where a query function's field lives in the descriptor.
const WIDTH: u64 = offset_of!(ImageDesc, width) as u64;
const HEIGHT: u64 = offset_of!(ImageDesc, height) as u64;
const DEPTH: u64 = offset_of!(ImageDesc, depth) as u64;
const ARRAY_SIZE: u64 = offset_of!(ImageDesc, array_size) as u64;
const CHANNEL_ORDER: u64 = offset_of!(ImageDesc, channel_order) as u64;
const CHANNEL_TYPE: u64 = offset_of!(ImageDesc, channel_type) as u64;
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

/// `IMAGE_TEXEL_*` for a texel of element `s`.
fn texel_flags(s: Option<Scalar>) -> u32 {
    match s {
        Some(Scalar::Int) => abi::IMAGE_TEXEL_INT,
        Some(Scalar::UInt) => abi::IMAGE_TEXEL_UINT,
        _ => 0,
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// An image builtin on the CPU target.
    pub(super) fn image_builtin(&mut self, op: ImageOp, o: &Overload, args: &[ExprId], ty: TypeId, span: Span) -> R<Option<BasicValueEnum<'ctx>>> {
        let Some(Ty::Image(img, _)) = o.params.first() else {
            return super::ice("an image builtin without an image parameter");
        };
        if matches!(img, Image::I2dMsaa | Image::I2dArrayMsaa | Image::I2dMsaaDepth | Image::I2dArrayMsaaDepth) {
            self.unsupported(span, "a multi-sample image");
            return self.zero_of(ty);
        }
        let image = self.value(args[0])?.into_pointer_value();
        let i32t = self.ctx.i32_type();
        let v: BasicValueEnum = match op {
            ImageOp::Read { sampled } => {
                let (sampler, coord) = if sampled { (self.value(args[1])?.into_int_value(), args[2]) } else { (i32t.const_int(abi::SAMPLER_NONE as u64, false), args[1]) };
                let coord_float = o.params.last().and_then(Ty::element) == Some(Scalar::Float);
                let flags = texel_flags(o.ret.element()) | if coord_float { abi::IMAGE_COORD_FLOAT } else { 0 };
                let coord = self.value(coord)?;
                // The runtime reads only the lanes the image type has.
                let cslot = self.texel_slot("coord")?;
                self.b.build_store(cslot, coord)?;
                let tslot = self.texel_slot("texel")?;
                let f = self.descriptor_fn(image, READ)?;
                let fty = self.ctx.void_type().fn_type(&[image.get_type().into(), i32t.into(), i32t.into(), cslot.get_type().into(), tslot.get_type().into()], false);
                self.b.build_indirect_call(fty, f, &[image.into(), sampler.into(), i32t.const_int(flags as u64, false).into(), cslot.into(), tslot.into()], "")?;
                match &o.ret {
                    // A depth image's texel is its first lane.
                    Ty::Scalar(Scalar::Float) => self.b.build_load(self.ctx.f32_type(), tslot, "")?,
                    Ty::Vector(Scalar::Half, 4) => {
                        let f = self.b.build_load(self.ctx.f32_type().vec_type(4), tslot, "")?.into_vector_value();
                        self.b.build_float_trunc(f, self.ctx.f16_type().vec_type(4), "")?.into()
                    }
                    Ty::Vector(Scalar::Float, 4) => self.b.build_load(self.ctx.f32_type().vec_type(4), tslot, "")?,
                    _ => self.b.build_load(i32t.vec_type(4), tslot, "")?,
                }
            }
            ImageOp::Write => {
                let coord = self.value(args[1])?;
                let color = self.value(args[2])?;
                let flags = texel_flags(o.params.get(2).and_then(Ty::element));
                // The runtime reads only the lanes the image type has.
                let cslot = self.texel_slot("coord")?;
                self.b.build_store(cslot, coord)?;
                let tslot = self.texel_slot("texel")?;
                let color: BasicValueEnum = match o.params.get(2) {
                    Some(Ty::Vector(Scalar::Half, 4)) => self.b.build_float_ext(color.into_vector_value(), self.ctx.f32_type().vec_type(4), "")?.into(),
                    Some(Ty::Scalar(_)) => {
                        self.b.build_store(tslot, i32t.vec_type(4).const_zero())?;
                        color
                    }
                    _ => color,
                };
                self.b.build_store(tslot, color)?;
                let f = self.descriptor_fn(image, WRITE)?;
                let fty = self.ctx.void_type().fn_type(&[image.get_type().into(), i32t.into(), cslot.get_type().into(), tslot.get_type().into()], false);
                self.b.build_indirect_call(fty, f, &[image.into(), i32t.const_int(flags as u64, false).into(), cslot.into(), tslot.into()], "")?;
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
            ImageOp::NumSamples => {
                self.unsupported(span, "a multi-sample image");
                return self.zero_of(ty);
            }
        };
        Ok(Some(v))
    }

    /// A size field of the descriptor as an `int`.
    fn image_size(&mut self, image: PointerValue<'ctx>, off: u64) -> R<IntValue<'ctx>> {
        let p = self.byte_offset(image, off)?;
        let v = self.b.build_load(self.ctx.i64_type(), p, "")?.into_int_value();
        Ok(self.b.build_int_truncate(v, self.ctx.i32_type(), "")?)
    }

    /// The descriptor's function pointer at `off`.
    fn descriptor_fn(&mut self, image: PointerValue<'ctx>, off: u64) -> R<PointerValue<'ctx>> {
        let p = self.byte_offset(image, off)?;
        Ok(self.b.build_load(self.ptr_ty(AddrSpace::Private), p, "")?.into_pointer_value())
    }

    /// Four 32-bit lanes of stack storage in the entry block.
    fn texel_slot(&mut self, name: &str) -> R<PointerValue<'ctx>> {
        let t = self.ctx.i32_type().vec_type(4).as_basic_type_enum();
        self.at_entry(|g| {
            let p = g.b.build_alloca(t, name)?;
            if let Some(i) = p.as_instruction() {
                let _ = i.set_alignment(16);
            }
            Ok(p)
        })
    }
}
