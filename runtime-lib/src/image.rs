//! Image objects and samplers, and the functions kernels call to read and
//! write images (`read_image*`, `write_image*`).
//!
//! An image argument is a pointer to an [`abi::ImageDesc`], which carries
//! the runtime's read and write functions (one pair per channel type) as
//! function pointers: the generated code calls them through the
//! descriptor, so neither the JIT nor a shared object compiled ahead of
//! time resolves a runtime symbol.
//! Sampling follows the OpenCL 2.0 specification, section 8 ("Image
//! Addressing and Filtering") and the conversion rules of section 8.3.
//! Where the specification leaves a result undefined (`CLK_ADDRESS_NONE`
//! outside the image, repeat modes with unnormalized coordinates, linear
//! filtering of integer images, writes outside the image), the runtime
//! picks something safe: clamping to the edge, nearest filtering, no write;
//! no coordinate ever reads or writes outside the image's memory.

use crate::abi::{self, ImageDesc};
use crate::Error;
use std::sync::Arc;

/// The dimensionality of an image (the kernel parameter's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageType {
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image3d,
    Image2dDepth,
    Image2dArrayDepth,
}

impl ImageType {
    /// The `abi::IMAGE_*` code.
    pub fn code(self) -> u32 {
        match self {
            ImageType::Image1d => abi::IMAGE_1D,
            ImageType::Image1dArray => abi::IMAGE_1D_ARRAY,
            ImageType::Image1dBuffer => abi::IMAGE_1D_BUFFER,
            ImageType::Image2d => abi::IMAGE_2D,
            ImageType::Image2dArray => abi::IMAGE_2D_ARRAY,
            ImageType::Image3d => abi::IMAGE_3D,
            ImageType::Image2dDepth => abi::IMAGE_2D_DEPTH,
            ImageType::Image2dArrayDepth => abi::IMAGE_2D_ARRAY_DEPTH,
        }
    }

    pub fn from_code(c: u32) -> Option<ImageType> {
        ImageType::ALL.into_iter().find(|t| t.code() == c)
    }

    pub const ALL: [ImageType; 8] = [
        ImageType::Image1d,
        ImageType::Image1dArray,
        ImageType::Image1dBuffer,
        ImageType::Image2d,
        ImageType::Image2dArray,
        ImageType::Image3d,
        ImageType::Image2dDepth,
        ImageType::Image2dArrayDepth,
    ];

    /// The OpenCL C type name.
    pub fn name(self) -> &'static str {
        match self {
            ImageType::Image1d => "image1d_t",
            ImageType::Image1dArray => "image1d_array_t",
            ImageType::Image1dBuffer => "image1d_buffer_t",
            ImageType::Image2d => "image2d_t",
            ImageType::Image2dArray => "image2d_array_t",
            ImageType::Image3d => "image3d_t",
            ImageType::Image2dDepth => "image2d_depth_t",
            ImageType::Image2dArrayDepth => "image2d_array_depth_t",
        }
    }

    /// Spatial dimensions (1 to 3), not counting an array's layers.
    pub fn dims(self) -> usize {
        match self {
            ImageType::Image1d | ImageType::Image1dBuffer | ImageType::Image1dArray => 1,
            ImageType::Image2d | ImageType::Image2dArray | ImageType::Image2dDepth | ImageType::Image2dArrayDepth => 2,
            ImageType::Image3d => 3,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, ImageType::Image1dArray | ImageType::Image2dArray | ImageType::Image2dArrayDepth)
    }

    pub fn is_depth(self) -> bool {
        matches!(self, ImageType::Image2dDepth | ImageType::Image2dArrayDepth)
    }

    /// Sizes an image of this type is made with: the spatial sizes, then
    /// the number of layers of an array.
    pub fn size_count(self) -> usize {
        self.dims() + self.is_array() as usize
    }
}

/// `CL_R` …: how a texel's channels map to (r, g, b, a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelOrder {
    R,
    A,
    Rg,
    Ra,
    Rgba,
    Bgra,
    Argb,
    Intensity,
    Luminance,
    Depth,
    /// `CL_RGB`, `CL_RGBx`: only with the packed channel types.
    Rgb,
    Rgbx,
    /// The sRGB orders (OpenCL 2.0), only with `UNORM_INT8`: reads convert
    /// r, g and b from sRGB to linear, writes back (section 8.3.1.3).
    Srgb,
    Srgbx,
    Srgba,
    Sbgra,
}

impl ChannelOrder {
    /// The `CLK_*` value.
    pub fn code(self) -> u32 {
        match self {
            ChannelOrder::R => 0x10B0,
            ChannelOrder::A => 0x10B1,
            ChannelOrder::Rg => 0x10B2,
            ChannelOrder::Ra => 0x10B3,
            ChannelOrder::Rgba => 0x10B5,
            ChannelOrder::Bgra => 0x10B6,
            ChannelOrder::Argb => 0x10B7,
            ChannelOrder::Intensity => 0x10B8,
            ChannelOrder::Luminance => 0x10B9,
            ChannelOrder::Depth => 0x10BD,
            ChannelOrder::Rgb => 0x10B4,
            ChannelOrder::Rgbx => 0x10BC,
            ChannelOrder::Srgb => 0x10BF,
            ChannelOrder::Srgbx => 0x10C0,
            ChannelOrder::Srgba => 0x10C1,
            ChannelOrder::Sbgra => 0x10C2,
        }
    }

    pub const ALL: [ChannelOrder; 16] = [
        ChannelOrder::R,
        ChannelOrder::A,
        ChannelOrder::Rg,
        ChannelOrder::Ra,
        ChannelOrder::Rgba,
        ChannelOrder::Bgra,
        ChannelOrder::Argb,
        ChannelOrder::Intensity,
        ChannelOrder::Luminance,
        ChannelOrder::Depth,
        ChannelOrder::Rgb,
        ChannelOrder::Rgbx,
        ChannelOrder::Srgb,
        ChannelOrder::Srgbx,
        ChannelOrder::Srgba,
        ChannelOrder::Sbgra,
    ];

    /// The order of a `CLK_*` value.
    pub fn from_code(c: u32) -> Option<ChannelOrder> {
        ChannelOrder::ALL.into_iter().find(|o| o.code() == c)
    }

    /// The name without `CL_` (`RGBA`), as `clc run` spells it in lower case.
    pub fn name(self) -> &'static str {
        match self {
            ChannelOrder::R => "R",
            ChannelOrder::A => "A",
            ChannelOrder::Rg => "RG",
            ChannelOrder::Ra => "RA",
            ChannelOrder::Rgba => "RGBA",
            ChannelOrder::Bgra => "BGRA",
            ChannelOrder::Argb => "ARGB",
            ChannelOrder::Intensity => "INTENSITY",
            ChannelOrder::Luminance => "LUMINANCE",
            ChannelOrder::Depth => "DEPTH",
            ChannelOrder::Rgb => "RGB",
            ChannelOrder::Rgbx => "RGBx",
            ChannelOrder::Srgb => "sRGB",
            ChannelOrder::Srgbx => "sRGBx",
            ChannelOrder::Srgba => "sRGBA",
            ChannelOrder::Sbgra => "sBGRA",
        }
    }

    /// Channels stored per texel (with the unused `x` of `RGBx` and
    /// `sRGBx`; the packed types hold all of theirs in one value).
    pub fn channels(self) -> usize {
        match self {
            ChannelOrder::R | ChannelOrder::A | ChannelOrder::Intensity | ChannelOrder::Luminance | ChannelOrder::Depth => 1,
            ChannelOrder::Rg | ChannelOrder::Ra => 2,
            ChannelOrder::Rgb | ChannelOrder::Srgb => 3,
            ChannelOrder::Rgba | ChannelOrder::Bgra | ChannelOrder::Argb | ChannelOrder::Rgbx | ChannelOrder::Srgbx | ChannelOrder::Srgba | ChannelOrder::Sbgra => 4,
        }
    }

    /// Are r, g and b stored in sRGB space?
    pub fn is_srgb(self) -> bool {
        matches!(self, ChannelOrder::Srgb | ChannelOrder::Srgbx | ChannelOrder::Srgba | ChannelOrder::Sbgra)
    }

    /// For each stored channel, the lane of (r, g, b, a) it holds.
    pub fn lanes(self) -> &'static [usize] {
        match self {
            ChannelOrder::R | ChannelOrder::Intensity | ChannelOrder::Luminance | ChannelOrder::Depth => &[0],
            ChannelOrder::A => &[3],
            ChannelOrder::Rg => &[0, 1],
            ChannelOrder::Ra => &[0, 3],
            ChannelOrder::Rgba | ChannelOrder::Srgba => &[0, 1, 2, 3],
            ChannelOrder::Bgra | ChannelOrder::Sbgra => &[2, 1, 0, 3],
            ChannelOrder::Argb => &[3, 0, 1, 2],
            ChannelOrder::Rgb | ChannelOrder::Rgbx | ChannelOrder::Srgb | ChannelOrder::Srgbx => &[0, 1, 2],
        }
    }

    /// Does the order have an alpha channel (the border colour's alpha
    /// is then 0, else 1)?
    pub fn has_alpha(self) -> bool {
        matches!(self, ChannelOrder::A | ChannelOrder::Ra | ChannelOrder::Rgba | ChannelOrder::Bgra | ChannelOrder::Argb | ChannelOrder::Intensity | ChannelOrder::Srgba | ChannelOrder::Sbgra)
    }
}

/// `CL_UNORM_INT8` …: how one channel is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    SnormInt8,
    SnormInt16,
    UnormInt8,
    UnormInt16,
    SignedInt8,
    SignedInt16,
    SignedInt32,
    UnsignedInt8,
    UnsignedInt16,
    UnsignedInt32,
    HalfFloat,
    Float,
    /// The packed types (`RGB`/`RGBx` only): r, g, b in one 16-bit value
    /// (5, 6, 5 bits from the top; 5, 5, 5 below an unused top bit) or one
    /// 32-bit value (10 bits each below 2 unused ones), normalized.
    UnormShort565,
    UnormShort555,
    UnormInt101010,
}

impl ChannelType {
    /// The `CLK_*` value.
    pub fn code(self) -> u32 {
        match self {
            ChannelType::SnormInt8 => 0x10D0,
            ChannelType::SnormInt16 => 0x10D1,
            ChannelType::UnormInt8 => 0x10D2,
            ChannelType::UnormInt16 => 0x10D3,
            ChannelType::SignedInt8 => 0x10D7,
            ChannelType::SignedInt16 => 0x10D8,
            ChannelType::SignedInt32 => 0x10D9,
            ChannelType::UnsignedInt8 => 0x10DA,
            ChannelType::UnsignedInt16 => 0x10DB,
            ChannelType::UnsignedInt32 => 0x10DC,
            ChannelType::HalfFloat => 0x10DD,
            ChannelType::Float => 0x10DE,
            ChannelType::UnormShort565 => 0x10D4,
            ChannelType::UnormShort555 => 0x10D5,
            ChannelType::UnormInt101010 => 0x10D6,
        }
    }

    pub const ALL: [ChannelType; 15] = [
        ChannelType::SnormInt8,
        ChannelType::SnormInt16,
        ChannelType::UnormInt8,
        ChannelType::UnormInt16,
        ChannelType::SignedInt8,
        ChannelType::SignedInt16,
        ChannelType::SignedInt32,
        ChannelType::UnsignedInt8,
        ChannelType::UnsignedInt16,
        ChannelType::UnsignedInt32,
        ChannelType::HalfFloat,
        ChannelType::Float,
        ChannelType::UnormShort565,
        ChannelType::UnormShort555,
        ChannelType::UnormInt101010,
    ];

    /// The type of a `CLK_*` value.
    pub fn from_code(c: u32) -> Option<ChannelType> {
        ChannelType::ALL.into_iter().find(|t| t.code() == c)
    }

    /// The name without `CL_` (`UNORM_INT8`).
    pub fn name(self) -> &'static str {
        match self {
            ChannelType::SnormInt8 => "SNORM_INT8",
            ChannelType::SnormInt16 => "SNORM_INT16",
            ChannelType::UnormInt8 => "UNORM_INT8",
            ChannelType::UnormInt16 => "UNORM_INT16",
            ChannelType::SignedInt8 => "SIGNED_INT8",
            ChannelType::SignedInt16 => "SIGNED_INT16",
            ChannelType::SignedInt32 => "SIGNED_INT32",
            ChannelType::UnsignedInt8 => "UNSIGNED_INT8",
            ChannelType::UnsignedInt16 => "UNSIGNED_INT16",
            ChannelType::UnsignedInt32 => "UNSIGNED_INT32",
            ChannelType::HalfFloat => "HALF_FLOAT",
            ChannelType::Float => "FLOAT",
            ChannelType::UnormShort565 => "UNORM_SHORT_565",
            ChannelType::UnormShort555 => "UNORM_SHORT_555",
            ChannelType::UnormInt101010 => "UNORM_INT_101010",
        }
    }

    /// Bytes of one channel; of the whole texel for the packed types.
    pub fn size(self) -> usize {
        match self {
            ChannelType::SnormInt8 | ChannelType::UnormInt8 | ChannelType::SignedInt8 | ChannelType::UnsignedInt8 => 1,
            ChannelType::SnormInt16 | ChannelType::UnormInt16 | ChannelType::SignedInt16 | ChannelType::UnsignedInt16 | ChannelType::HalfFloat | ChannelType::UnormShort565 | ChannelType::UnormShort555 => 2,
            ChannelType::SignedInt32 | ChannelType::UnsignedInt32 | ChannelType::Float | ChannelType::UnormInt101010 => 4,
        }
    }

    /// Is every channel packed into one value?
    pub fn is_packed(self) -> bool {
        matches!(self, ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010)
    }

    /// For a packed type, each channel's (shift, bits) in r, g, b order.
    fn fields(self) -> [(u32, u32); 3] {
        match self {
            ChannelType::UnormShort565 => [(11, 5), (5, 6), (0, 5)],
            ChannelType::UnormShort555 => [(10, 5), (5, 5), (0, 5)],
            _ => [(20, 10), (10, 10), (0, 10)],
        }
    }

    /// What a kernel reads it as: `read_imagei`, `read_imageui` or
    /// `read_imagef`.
    pub fn texel(self) -> TexelKind {
        match self {
            ChannelType::SignedInt8 | ChannelType::SignedInt16 | ChannelType::SignedInt32 => TexelKind::Int,
            ChannelType::UnsignedInt8 | ChannelType::UnsignedInt16 | ChannelType::UnsignedInt32 => TexelKind::UInt,
            _ => TexelKind::Float,
        }
    }
}

/// The lane type of the texels a kernel reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelKind {
    Float,
    Int,
    UInt,
}

impl TexelKind {
    /// The kind a read or write call's `IMAGE_TEXEL_*` flags name.
    fn from_flags(flags: u32) -> TexelKind {
        if flags & abi::IMAGE_TEXEL_INT != 0 {
            TexelKind::Int
        } else if flags & abi::IMAGE_TEXEL_UINT != 0 {
            TexelKind::UInt
        } else {
            TexelKind::Float
        }
    }
}

/// A channel order and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageFormat {
    pub order: ChannelOrder,
    pub ty: ChannelType,
}

impl ImageFormat {
    pub fn new(order: ChannelOrder, ty: ChannelType) -> ImageFormat {
        ImageFormat { order, ty }
    }

    /// Bytes of one texel.
    pub fn elem_size(self) -> usize {
        if self.ty.is_packed() { self.ty.size() } else { self.order.channels() * self.ty.size() }
    }

    /// Is the combination one OpenCL allows (section 5.3.1.1)?
    fn check(self) -> Result<(), String> {
        use ChannelType as T;
        let ok = match self.order {
            ChannelOrder::Intensity | ChannelOrder::Luminance => matches!(self.ty, T::UnormInt8 | T::UnormInt16 | T::SnormInt8 | T::SnormInt16 | T::HalfFloat | T::Float),
            ChannelOrder::Bgra | ChannelOrder::Argb => matches!(self.ty, T::UnormInt8 | T::SnormInt8 | T::SignedInt8 | T::UnsignedInt8),
            ChannelOrder::Depth => matches!(self.ty, T::UnormInt16 | T::Float),
            ChannelOrder::Rgb | ChannelOrder::Rgbx => self.ty.is_packed(),
            ChannelOrder::Srgb | ChannelOrder::Srgbx | ChannelOrder::Srgba | ChannelOrder::Sbgra => self.ty == T::UnormInt8,
            _ => !self.ty.is_packed(),
        };
        if ok { Ok(()) } else { Err(format!("channel order {} cannot have channel type {}", self.order.name(), self.ty.name())) }
    }
}

/// The formats whose texels the generated code reads and writes itself
/// (`ImageDesc::inline_format` is 1 + the index here): the common ones,
/// each with one channel type the generated code converts without a call
/// (no `HALF_FLOAT`, whose conversions are long). The normalized integer
/// formats come first, one after another: the compiler converts a write to
/// any of them once, after testing that the tag is in their range. The
/// compiler takes the
/// orders and types from this table, so adding a format here is enough;
/// the tests in `compiler/tests/images.rs` run every one of them against
/// the reference sampler.
pub const INLINE_FORMATS: [ImageFormat; 10] = [
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::UnormInt8 },
    ImageFormat { order: ChannelOrder::Bgra, ty: ChannelType::UnormInt8 },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::UnormInt16 },
    ImageFormat { order: ChannelOrder::R, ty: ChannelType::UnormInt8 },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::Float },
    ImageFormat { order: ChannelOrder::R, ty: ChannelType::Float },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::SignedInt8 },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::SignedInt32 },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::UnsignedInt8 },
    ImageFormat { order: ChannelOrder::Rgba, ty: ChannelType::UnsignedInt32 },
];

impl ImageFormat {
    /// `ImageDesc::inline_format` of an image of this format.
    pub fn inline_tag(self) -> u32 {
        INLINE_FORMATS.iter().position(|&f| f == self).map_or(0, |i| i as u32 + 1)
    }
}

/// What kernels may do with an image (the `CL_MEM_*` access flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageAccess {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// An image kernels read (through samplers or not) and write; the host
/// reads and writes its texels as bytes, rows tightly packed.
pub struct Image {
    pub(crate) data: Arc<ImageStorage>,
    access: ImageAccess,
}

pub(crate) struct ImageStorage {
    /// The descriptor kernels receive a pointer to.
    desc: Box<ImageDesc>,
    /// The texels' allocation (`Box::into_raw`), freed on drop; reached
    /// only through `desc.data`.
    bytes: *mut [u128],
    len: usize,
    ty: ImageType,
    format: ImageFormat,
}

// SAFETY: as for buffers: kernels reach the texels through the
// descriptor's pointer only while a launch runs, the host only through
// `&`/`&mut Image` while none uses the image.
unsafe impl Send for ImageStorage {}
unsafe impl Sync for ImageStorage {}

impl Drop for ImageStorage {
    fn drop(&mut self) {
        // SAFETY: made by `Box::into_raw` in `Image::new`, freed once.
        drop(unsafe { Box::from_raw(self.bytes) });
    }
}

impl ImageStorage {
    /// The address kernels receive.
    pub(crate) fn desc_ptr(&self) -> *const ImageDesc {
        &*self.desc
    }
}

impl Image {
    /// A zero-filled image of type `ty`. `sizes` are the width, then the
    /// height (2D and 3D images), the depth (3D) and the number of layers
    /// (arrays), every one at least 1; readable and writable by kernels.
    pub fn new(ty: ImageType, format: ImageFormat, sizes: &[usize]) -> Result<Image, Error> {
        format.check().map_err(Error::Image)?;
        if ty.is_depth() != (format.order == ChannelOrder::Depth) {
            return Err(Error::Image(format!("a {} needs {} channel order; got {}", ty.name(), if ty.is_depth() { "the DEPTH" } else { "a colour" }, format.order.name())));
        }
        if sizes.len() != ty.size_count() || sizes.contains(&0) {
            let what = match ty {
                ImageType::Image1d | ImageType::Image1dBuffer => "a width",
                ImageType::Image1dArray => "a width and a number of layers",
                ImageType::Image2d | ImageType::Image2dDepth => "a width and a height",
                ImageType::Image2dArray | ImageType::Image2dArrayDepth => "a width, a height and a number of layers",
                ImageType::Image3d => "a width, a height and a depth",
            };
            return Err(Error::Image(format!("a {} takes {what}, each at least 1; got {sizes:?}", ty.name())));
        }
        let width = sizes[0];
        let height = if ty.dims() >= 2 { sizes[1] } else { 1 };
        let depth = if ty.dims() == 3 { sizes[2] } else { 1 };
        let layers = if ty.is_array() { sizes[ty.dims()] } else { 1 };
        let elem = format.elem_size();
        let row_pitch = width.checked_mul(elem);
        let slice_pitch = row_pitch.and_then(|r| r.checked_mul(height));
        let len = slice_pitch.and_then(|s| s.checked_mul(depth)).and_then(|s| s.checked_mul(layers)).filter(|&l| l <= isize::MAX as usize / 2);
        let (Some(row_pitch), Some(slice_pitch), Some(len)) = (row_pitch, slice_pitch, len) else {
            return Err(Error::Image(format!("an image of {sizes:?} texels is too large")));
        };
        let bytes = Box::into_raw(vec![0u128; len.div_ceil(16).max(1)].into_boxed_slice());
        let desc = Box::new(ImageDesc {
            data: bytes.cast(),
            width: width as u64,
            height: height as u64,
            depth: depth as u64,
            array_size: layers as u64,
            row_pitch: row_pitch as u64,
            slice_pitch: slice_pitch as u64,
            channel_order: format.order.code(),
            channel_type: format.ty.code(),
            elem_size: elem as u32,
            image_type: ty.code(),
            inline_format: format.inline_tag(),
            read: read_fn(format.ty),
            write: write_fn(format.ty),
        });
        let data = Arc::new(ImageStorage { desc, bytes, len, ty, format });
        Ok(Image { data, access: ImageAccess::ReadWrite })
    }

    /// An image holding `bytes` (texels in order: x fastest, then y, z or
    /// the layer), which must be exactly the image's size.
    pub fn from_bytes(ty: ImageType, format: ImageFormat, sizes: &[usize], bytes: &[u8]) -> Result<Image, Error> {
        let mut img = Image::new(ty, format, sizes)?;
        img.write(bytes)?;
        Ok(img)
    }

    /// The image, for kernels to use only as `access` allows (checked when
    /// it is set as an argument). Images are made read-write.
    pub fn with_access(mut self, access: ImageAccess) -> Image {
        self.access = access;
        self
    }

    pub fn image_type(&self) -> ImageType {
        self.data.ty
    }

    pub fn format(&self) -> ImageFormat {
        self.data.format
    }

    pub fn access(&self) -> ImageAccess {
        self.access
    }

    pub fn width(&self) -> usize {
        self.data.desc.width as usize
    }

    pub fn height(&self) -> usize {
        self.data.desc.height as usize
    }

    pub fn depth(&self) -> usize {
        self.data.desc.depth as usize
    }

    /// Layers of an array image; 1 otherwise.
    pub fn array_size(&self) -> usize {
        self.data.desc.array_size as usize
    }

    /// Bytes of all texels.
    pub fn len(&self) -> usize {
        self.data.len
    }

    pub fn is_empty(&self) -> bool {
        self.data.len == 0
    }

    fn ptr(&self) -> *mut u8 {
        self.data.desc.data
    }

    /// The texels' bytes.
    pub fn read_bytes(&self) -> Vec<u8> {
        // SAFETY: `len` bytes lie at the descriptor's pointer; no launch
        // writes while the host holds `&self` (launches borrow their
        // kernels, which keep images only until they end).
        unsafe { std::slice::from_raw_parts(self.ptr(), self.data.len) }.to_vec()
    }

    /// The texels as `T`s (channels of the channel type's size: `u8` for
    /// `UNORM_INT8`, `u16` for `HALF_FLOAT`, `f32` for `FLOAT` …).
    pub fn read<T: crate::Pod>(&self) -> Vec<T> {
        let bytes = self.read_bytes();
        let n = bytes.len() / std::mem::size_of::<T>().max(1);
        let mut out = Vec::<T>::with_capacity(n);
        // SAFETY: `n` whole `T`s; `Pod` makes every bit pattern valid.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), n * std::mem::size_of::<T>());
            out.set_len(n);
        }
        out
    }

    /// Overwrites every texel: `bytes` must be exactly the image's size.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if bytes.len() != self.data.len {
            return Err(Error::Image(format!("{} bytes for an image of {} bytes", bytes.len(), self.data.len)));
        }
        // SAFETY: as for `read_bytes`; `&mut self` excludes other host
        // access, and a running launch keeps its own reference only while
        // the kernel (borrowing nothing of the image) runs synchronously
        // or until its event is waited for, which the host must do first.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr(), bytes.len()) };
        Ok(())
    }

    /// Overwrites every texel with `items` (as [`Image::read`] reads them).
    pub fn write_items<T: crate::Pod>(&mut self, items: &[T]) -> Result<(), Error> {
        // SAFETY: `Pod` types have no padding.
        let bytes = unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<u8>(), std::mem::size_of_val(items)) };
        self.write(bytes)
    }
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = &self.data.desc;
        f.debug_struct("Image").field("type", &self.data.ty).field("format", &self.data.format).field("size", &[d.width, d.height, d.depth, d.array_size]).finish()
    }
}

/// `CLK_ADDRESS_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressingMode {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

/// `CLK_FILTER_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterMode {
    Nearest,
    Linear,
}

/// A sampler kernel argument (`sampler_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    pub normalized_coords: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
}

impl Sampler {
    pub fn new(normalized_coords: bool, addressing: AddressingMode, filter: FilterMode) -> Sampler {
        Sampler { normalized_coords, addressing, filter }
    }

    /// The OpenCL C encoding kernels receive (`CLK_*` bits).
    pub fn bits(self) -> u32 {
        let a = match self.addressing {
            AddressingMode::None => abi::SAMPLER_ADDRESS_NONE,
            AddressingMode::ClampToEdge => abi::SAMPLER_ADDRESS_CLAMP_TO_EDGE,
            AddressingMode::Clamp => abi::SAMPLER_ADDRESS_CLAMP,
            AddressingMode::Repeat => abi::SAMPLER_ADDRESS_REPEAT,
            AddressingMode::MirroredRepeat => abi::SAMPLER_ADDRESS_MIRRORED_REPEAT,
        };
        let f = match self.filter {
            FilterMode::Nearest => abi::SAMPLER_FILTER_NEAREST,
            FilterMode::Linear => abi::SAMPLER_FILTER_LINEAR,
        };
        self.normalized_coords as u32 | a | f
    }

    /// A sampler from its encoding.
    pub fn from_bits(bits: u32) -> Sampler {
        let addressing = match bits & abi::SAMPLER_ADDRESS_MASK {
            abi::SAMPLER_ADDRESS_CLAMP_TO_EDGE => AddressingMode::ClampToEdge,
            abi::SAMPLER_ADDRESS_CLAMP => AddressingMode::Clamp,
            abi::SAMPLER_ADDRESS_REPEAT => AddressingMode::Repeat,
            abi::SAMPLER_ADDRESS_MIRRORED_REPEAT => AddressingMode::MirroredRepeat,
            _ => AddressingMode::None,
        };
        let filter = if bits & abi::SAMPLER_FILTER_LINEAR != 0 { FilterMode::Linear } else { FilterMode::Nearest };
        Sampler { normalized_coords: bits & abi::SAMPLER_NORMALIZED_COORDS != 0, addressing, filter }
    }
}

// ---------------------------------------------------------------------
// Conversions (section 8.3)
// ---------------------------------------------------------------------

/// `half` bits to `float`.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1F) as u32;
    let man = (h & 0x3FF) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1F, 0) => sign | 0x7F80_0000,
        (0x1F, m) => sign | 0x7FC0_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// `float` to `half` bits, rounding to nearest even (the rounding
/// `write_imagef` uses for `HALF_FLOAT`).
pub fn f32_to_half(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xFF) as i32;
    let man = x & 0x7F_FFFF;
    if exp == 0xFF {
        return sign | 0x7C00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        // Subnormal half (or zero): the value in units of 2^-24.
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let q = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let q = if rem > half || (rem == half && q & 1 == 1) { q + 1 } else { q };
        return sign | q as u16;
    }
    let q = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1FFF;
    let q = if rem > 0x1000 || (rem == 0x1000 && q & 1 == 1) { q + 1 } else { q };
    // A carry into the exponent is right (it may make infinity).
    sign | q as u16
}

/// `f` rounded to the nearest integer, ties to even: `round_ties_even`
/// without the C library call it becomes on baseline x86-64. Adding and
/// subtracting 2^23 to a magnitude below it leaves no fraction bits (f32
/// sums round to nearest even); larger magnitudes are integers already.
#[inline(always)]
fn rint(f: f32) -> f32 {
    const M: f32 = 8_388_608.0;
    let a = f.abs();
    if a < M { ((a + M) - M).copysign(f) } else { f }
}

/// `convert_<int>_sat_rte(f)` into [lo, hi]: NaN is 0.
fn sat_rte(f: f32, lo: f32, hi: f32) -> i64 {
    if f.is_nan() { 0 } else { rint(f).clamp(lo, hi) as i64 }
}

/// Channel `c` of the texel at `p`, as `float` bits, `int` or `uint`.
///
/// # Safety
/// `p` points at a texel of `ty`.
#[inline(always)]
unsafe fn load_channel(p: *const u8, ty: ChannelType, c: usize, kind: TexelKind) -> u32 {
    // SAFETY: the caller's texel holds channel `c`.
    unsafe {
        // Undefined by the specification for integer kinds: the value,
        // converted.
        let f = |v: f32| float_texel(v, kind);
        // (Packed types hold every channel in the value at `p`.)
        let at = p.wrapping_add(c * ty.size());
        match ty {
            ChannelType::UnormInt8 => f(*at as f32 / 255.0),
            ChannelType::UnormInt16 => f(at.cast::<u16>().read_unaligned() as f32 / 65535.0),
            ChannelType::SnormInt8 => f((*at as i8 as f32 / 127.0).max(-1.0)),
            ChannelType::SnormInt16 => f((at.cast::<i16>().read_unaligned() as f32 / 32767.0).max(-1.0)),
            ChannelType::HalfFloat => f(half_to_f32(at.cast::<u16>().read_unaligned())),
            ChannelType::Float => f(at.cast::<f32>().read_unaligned()),
            ChannelType::SignedInt8 => int_texel(*at as i8 as i32, kind),
            ChannelType::SignedInt16 => int_texel(at.cast::<i16>().read_unaligned() as i32, kind),
            ChannelType::SignedInt32 => int_texel(at.cast::<i32>().read_unaligned(), kind),
            ChannelType::UnsignedInt8 => uint_texel(*at as u32, kind),
            ChannelType::UnsignedInt16 => uint_texel(at.cast::<u16>().read_unaligned() as u32, kind),
            ChannelType::UnsignedInt32 => uint_texel(at.cast::<u32>().read_unaligned(), kind),
            ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010 => f(load_packed(p, ty)[c]),
        }
    }
}

/// A normalized value as a read of `kind` returns it (the value itself for
/// `read_imagef`; converted for the others, which the specification leaves
/// undefined).
fn float_texel(v: f32, kind: TexelKind) -> u32 {
    match kind {
        TexelKind::Float => v.to_bits(),
        _ => v as i32 as u32,
    }
}

/// The r, g, b of a texel of packed type `ty` at `p`, normalized (section
/// 8.3.1.1: each field over its largest value).
///
/// # Safety
/// `p` points at a texel of `ty`.
unsafe fn load_packed(p: *const u8, ty: ChannelType) -> [f32; 3] {
    // SAFETY: the caller's texel.
    let bits = unsafe { if ty.size() == 2 { p.cast::<u16>().read_unaligned() as u32 } else { p.cast::<u32>().read_unaligned() } };
    ty.unpack(bits)
}

impl ChannelType {
    /// The r, g, b a read returns from the stored value `bits` of a packed
    /// type (each field over its largest value).
    pub fn unpack(self, bits: u32) -> [f32; 3] {
        self.fields().map(|(shift, n)| {
            let max = (1u32 << n) - 1;
            (bits >> shift & max) as f32 / max as f32
        })
    }
}

/// Stores `x` as channel `c` (r, g or b) of the texel of packed type `ty`
/// at `p`: scaled to its field, rounded to nearest even and saturated as
/// for the other normalized types; the other fields and the unused bits
/// (undefined by the specification) are kept.
///
/// # Safety
/// `p` points at a writable texel of `ty`.
unsafe fn store_packed(p: *mut u8, ty: ChannelType, c: usize, x: f32) {
    let (shift, n) = ty.fields()[c];
    let max = (1u32 << n) - 1;
    let q = sat_rte(x * max as f32, 0.0, max as f32) as u32;
    // SAFETY: the caller's texel.
    unsafe {
        if ty.size() == 2 {
            let old = p.cast::<u16>().read_unaligned() as u32;
            p.cast::<u16>().write_unaligned((old & !(max << shift) | q << shift) as u16);
        } else {
            let old = p.cast::<u32>().read_unaligned();
            p.cast::<u32>().write_unaligned(old & !(max << shift) | q << shift);
        }
    }
}

/// An sRGB-encoded `UNORM_INT8` channel as a linear value (section 8.3.1.3:
/// c / 12.92 up to 0.04045, ((c + 0.055) / 1.055)^2.4 above), computed in
/// double precision and rounded once: well within the specification's
/// bound (the result converted back lies within 0.5 of the stored value).
pub fn srgb_to_linear(b: u8) -> f32 {
    static TABLE: std::sync::LazyLock<[f32; 256]> = std::sync::LazyLock::new(|| {
        std::array::from_fn(|b| {
            let c = b as f64 / 255.0;
            (if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }) as f32
        })
    });
    TABLE[b as usize]
}

/// A linear value as an sRGB-encoded `UNORM_INT8` channel (section 8.3.1.3:
/// NaN is 0, clamped to [0, 1], 12.92 c below 0.0031308, 1.055 c^(1/2.4) -
/// 0.055 above, scaled by 255), computed in double precision and rounded
/// to nearest even: within 0.5 of the exact result, where the
/// specification allows less than 1.
pub fn linear_to_srgb(x: f32) -> u8 {
    let c = if x.is_nan() { 0.0 } else { (x as f64).clamp(0.0, 1.0) };
    let s = if c < 0.0031308 { 12.92 * c } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (s * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

fn int_texel(v: i32, kind: TexelKind) -> u32 {
    if kind == TexelKind::Float { (v as f32).to_bits() } else { v as u32 }
}

fn uint_texel(v: u32, kind: TexelKind) -> u32 {
    if kind == TexelKind::Float { (v as f32).to_bits() } else { v }
}

/// Stores lane value `v` (`float` bits, `int` or `uint` per `kind`) as
/// channel `c` of the texel at `p`, converted as section 8.3 says.
///
/// # Safety
/// `p` points at a writable texel of `ty`.
#[inline(always)]
unsafe fn store_channel(p: *mut u8, ty: ChannelType, c: usize, kind: TexelKind, v: u32) {
    let as_f = || match kind {
        TexelKind::Float => f32::from_bits(v),
        TexelKind::Int => v as i32 as f32,
        TexelKind::UInt => v as f32,
    };
    // Integer writes saturate (`convert_<T>_sat`); a float written to an
    // integer image is undefined: converted with saturation.
    let as_i = || -> i64 {
        match kind {
            TexelKind::Float => sat_rte(f32::from_bits(v), i32::MIN as f32, i32::MAX as f32),
            TexelKind::Int => v as i32 as i64,
            TexelKind::UInt => v as i64,
        }
    };
    // SAFETY: the caller's texel holds channel `c`.
    unsafe {
        // (Packed types hold every channel in the value at `p`.)
        let at = p.wrapping_add(c * ty.size());
        match ty {
            ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010 => store_packed(p, ty, c, as_f()),
            ChannelType::UnormInt8 => *at = sat_rte(as_f() * 255.0, 0.0, 255.0) as u8,
            ChannelType::UnormInt16 => at.cast::<u16>().write_unaligned(sat_rte(as_f() * 65535.0, 0.0, 65535.0) as u16),
            ChannelType::SnormInt8 => *at = sat_rte(as_f() * 127.0, -128.0, 127.0) as i8 as u8,
            ChannelType::SnormInt16 => at.cast::<i16>().write_unaligned(sat_rte(as_f() * 32767.0, -32768.0, 32767.0) as i16),
            ChannelType::HalfFloat => at.cast::<u16>().write_unaligned(f32_to_half(as_f())),
            ChannelType::Float => at.cast::<f32>().write_unaligned(as_f()),
            ChannelType::SignedInt8 => *at = as_i().clamp(-128, 127) as i8 as u8,
            ChannelType::SignedInt16 => at.cast::<i16>().write_unaligned(as_i().clamp(-32768, 32767) as i16),
            ChannelType::SignedInt32 => at.cast::<i32>().write_unaligned(as_i().clamp(i32::MIN as i64, i32::MAX as i64) as i32),
            ChannelType::UnsignedInt8 => *at = as_i().clamp(0, 255) as u8,
            ChannelType::UnsignedInt16 => at.cast::<u16>().write_unaligned(as_i().clamp(0, 65535) as u16),
            ChannelType::UnsignedInt32 => at.cast::<u32>().write_unaligned(as_i().clamp(0, u32::MAX as i64) as u32),
        }
    }
}

// ---------------------------------------------------------------------
// Addressing and filtering (section 8.2)
// ---------------------------------------------------------------------

/// What the descriptor says, checked once per call.
struct View {
    data: *mut u8,
    size: [i64; 3],
    layers: i64,
    pitch: [usize; 3],
    order: ChannelOrder,
    ty: ChannelType,
    image: ImageType,
}

/// # Safety
/// `d` is a descriptor the runtime made.
#[inline(always)]
unsafe fn view(d: *const ImageDesc, ty: ChannelType) -> Option<View> {
    // SAFETY: the caller's descriptor.
    let d = unsafe { &*d };
    Some(View {
        data: d.data,
        size: [d.width as i64, d.height as i64, d.depth as i64],
        layers: d.array_size as i64,
        pitch: [d.elem_size as usize, d.row_pitch as usize, d.slice_pitch as usize],
        order: ChannelOrder::from_code(d.channel_order)?,
        ty,
        image: ImageType::from_code(d.image_type)?,
    })
}

impl View {
    /// The address of texel (x, y, z) of `layer`, all in range.
    fn texel(&self, at: [i64; 3], layer: i64) -> *mut u8 {
        let off = at[0] as usize * self.pitch[0] + at[1] as usize * self.pitch[1] + (at[2] + layer) as usize * self.pitch[2];
        // SAFETY (of the caller's use): the indices are in range, so the
        // texel lies in the image's memory.
        self.data.wrapping_add(off)
    }

    /// The texel at in-range indices, as 4 lanes of `kind`, with the
    /// channel order's defaults for missing channels.
    #[inline(always)]
    fn fetch(&self, at: [i64; 3], layer: i64, kind: TexelKind) -> [u32; 4] {
        let p = self.texel(at, layer);
        let one = if kind == TexelKind::Float { 1.0f32.to_bits() } else { 1 };
        let mut out = [0, 0, 0, one];
        let srgb = self.order.is_srgb() && kind == TexelKind::Float;
        for (c, &lane) in self.order.lanes().iter().enumerate() {
            // SAFETY: `p` is a texel of the image (of UNORM_INT8 channels
            // when the order is an sRGB one).
            out[lane] = unsafe { if srgb && lane < 3 { srgb_to_linear(*p.add(c)).to_bits() } else { load_channel(p, self.ty, c, kind) } };
        }
        match self.order {
            ChannelOrder::Intensity => out = [out[0]; 4],
            ChannelOrder::Luminance => out = [out[0], out[0], out[0], one],
            _ => {}
        }
        out
    }

    /// The border colour (`CLK_ADDRESS_CLAMP` outside the image).
    fn border(&self, kind: TexelKind) -> [u32; 4] {
        let one = if kind == TexelKind::Float { 1.0f32.to_bits() } else { 1 };
        [0, 0, 0, if self.order.has_alpha() { 0 } else { one }]
    }

    /// Texel (or border colour) at indices that may be out of range
    /// (`None`: outside under `CLK_ADDRESS_CLAMP`).
    #[inline(always)]
    fn fetch_or_border(&self, at: [Option<i64>; 3], layer: i64, kind: TexelKind) -> [u32; 4] {
        match at {
            [Some(x), Some(y), Some(z)] => self.fetch([x, y, z], layer, kind),
            _ => self.border(kind),
        }
    }
}

/// Applies the addressing mode to an integer index: `None` is outside
/// under `CLK_ADDRESS_CLAMP` (the border colour).
fn address(i: i64, size: i64, mode: AddressingMode) -> Option<i64> {
    match mode {
        AddressingMode::Clamp => (0..size).contains(&i).then_some(i),
        // Repeat modes need normalized coordinates; NONE is undefined
        // outside the image: both clamp to the edge.
        _ => Some(i.clamp(0, size - 1)),
    }
}

/// `floor` of a float as an index, saturating (NaN is 0).
fn floor_i(x: f32) -> i64 {
    x.floor() as i64
}

/// Nearest filtering of one coordinate (section 8.2.1 and 8.2.3).
fn nearest(s: f32, size: i64, s_: &Sampler) -> Option<i64> {
    let w = size as f32;
    match s_.addressing {
        AddressingMode::Repeat if s_.normalized_coords => {
            let u = (s - s.floor()) * w;
            let mut i = floor_i(u);
            if i > size - 1 {
                i -= size;
            }
            Some(i.clamp(0, size - 1))
        }
        AddressingMode::MirroredRepeat if s_.normalized_coords => {
            let sp = 2.0 * rint(0.5 * s);
            let sp = (s - sp).abs();
            let u = sp * w;
            Some(floor_i(u).min(size - 1).max(0))
        }
        mode => {
            let u = if s_.normalized_coords { s * w } else { s };
            address(floor_i(u), size, mode)
        }
    }
}

/// Linear filtering of one coordinate: the two indices and the weight of
/// the second (section 8.2.2 and 8.2.4).
fn linear(s: f32, size: i64, s_: &Sampler) -> (Option<i64>, Option<i64>, f32) {
    let w = size as f32;
    let frac = |x: f32| x - x.floor();
    match s_.addressing {
        AddressingMode::Repeat if s_.normalized_coords => {
            let u = (s - s.floor()) * w;
            let mut i0 = floor_i(u - 0.5);
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += size;
            }
            if i1 > size - 1 {
                i1 -= size;
            }
            (Some(i0.clamp(0, size - 1)), Some(i1.clamp(0, size - 1)), frac(u - 0.5))
        }
        AddressingMode::MirroredRepeat if s_.normalized_coords => {
            let sp = 2.0 * rint(0.5 * s);
            let sp = (s - sp).abs();
            let u = sp * w;
            let i0 = floor_i(u - 0.5);
            let i1 = i0 + 1;
            (Some(i0.max(0).min(size - 1)), Some(i1.min(size - 1).max(0)), frac(u - 0.5))
        }
        mode => {
            let u = if s_.normalized_coords { s * w } else { s };
            let i0 = floor_i(u - 0.5);
            (address(i0, size, mode), address(i0.saturating_add(1), size, mode), frac(u - 0.5))
        }
    }
}

/// The layer of an array image from its coordinate: rounded to the
/// nearest even integer (floats) and clamped to the layers.
fn layer_index(c: u32, float: bool, layers: i64) -> i64 {
    let l = if float { rint(f32::from_bits(c)) as i64 } else { c as i32 as i64 };
    l.clamp(0, layers - 1)
}

/// The `ImageRead` of an image with channels of `ty`: [`read_texel`]
/// compiled for that type (so the per-channel conversion is not a `match`
/// at every texel).
fn read_fn(ty: ChannelType) -> abi::ImageRead {
    macro_rules! each {
        ($($t:ident)*) => {
            match ty {
                $(ChannelType::$t => {
                    unsafe extern "C" fn f(image: *const ImageDesc, sampler: u32, flags: u32, coord: *const [u32; 4], texel: *mut [u32; 4]) {
                        // SAFETY: the caller's contract, passed on.
                        unsafe { read_texel(image, sampler, flags, coord, texel, ChannelType::$t) }
                    }
                    f
                })*
            }
        };
    }
    each!(SnormInt8 SnormInt16 UnormInt8 UnormInt16 SignedInt8 SignedInt16 SignedInt32 UnsignedInt8 UnsignedInt16 UnsignedInt32 HalfFloat Float UnormShort565 UnormShort555 UnormInt101010)
}

/// The `ImageWrite` of an image with channels of `ty` (as [`read_fn`]).
fn write_fn(ty: ChannelType) -> abi::ImageWrite {
    macro_rules! each {
        ($($t:ident)*) => {
            match ty {
                $(ChannelType::$t => {
                    unsafe extern "C" fn f(image: *const ImageDesc, flags: u32, coord: *const [i32; 4], texel: *const [u32; 4]) {
                        // SAFETY: the caller's contract, passed on.
                        unsafe { write_texel(image, flags, coord, texel, ChannelType::$t) }
                    }
                    f
                })*
            }
        };
    }
    each!(SnormInt8 SnormInt16 UnormInt8 UnormInt16 SignedInt8 SignedInt16 SignedInt32 UnsignedInt8 UnsignedInt16 UnsignedInt32 HalfFloat Float UnormShort565 UnormShort555 UnormInt101010)
}

/// `read_image{f,i,ui,h}` of an image with channels of `ty`.
///
/// # Safety
/// `image` is a descriptor the runtime made for channels of `ty`, `coord`
/// and `texel` point at 4 lanes each.
#[inline(always)]
unsafe fn read_texel(image: *const ImageDesc, sampler: u32, flags: u32, coord: *const [u32; 4], texel: *mut [u32; 4], ty: ChannelType) {
    // SAFETY: the caller's pointers.
    let Some(v) = (unsafe { view(image, ty) }) else {
        // SAFETY: the caller's texel storage.
        unsafe { *texel = [0; 4] };
        return;
    };
    // Only the lanes the image type has are read (each on its own: the
    // caller may have stored fewer than 4).
    // SAFETY: the caller's 4 lanes.
    let coord = |i: usize| unsafe { coord.cast::<u32>().add(i).read() };
    let kind = TexelKind::from_flags(flags);
    let float = flags & abi::IMAGE_COORD_FLOAT != 0;
    let s = Sampler::from_bits(sampler);
    let dims = v.image.dims();
    let layer = if v.image.is_array() { layer_index(coord(dims), float, v.layers) } else { 0 };
    let out = match kind {
        TexelKind::Float => sample(&v, &s, float, &coord, layer, TexelKind::Float),
        TexelKind::Int => sample(&v, &s, float, &coord, layer, TexelKind::Int),
        TexelKind::UInt => sample(&v, &s, float, &coord, layer, TexelKind::UInt),
    };
    // SAFETY: the caller's texel storage.
    unsafe { *texel = out };
}

/// The texel a read returns, for texels of `kind` (a constant where this
/// is inlined: each read function has one copy per kind).
#[inline(always)]
fn sample(v: &View, s: &Sampler, float: bool, coord: &impl Fn(usize) -> u32, layer: i64, kind: TexelKind) -> [u32; 4] {
    let dims = v.image.dims();
    if !float {
        // Integer coordinates: the texel itself, addressed.
        let mut at = [Some(0); 3];
        for (d, slot) in at.iter_mut().enumerate().take(dims) {
            *slot = address(coord(d) as i32 as i64, v.size[d], s.addressing);
        }
        v.fetch_or_border(at, layer, kind)
    } else if s.filter == FilterMode::Nearest || kind != TexelKind::Float {
        // Linear filtering of integer texels is undefined: nearest.
        let mut at = [Some(0); 3];
        for (d, slot) in at.iter_mut().enumerate().take(dims) {
            *slot = nearest(f32::from_bits(coord(d)), v.size[d], s);
        }
        v.fetch_or_border(at, layer, kind)
    } else {
        let mut i0 = [Some(0); 3];
        let mut i1 = [Some(0); 3];
        let mut a = [0.0f32; 3];
        for d in 0..dims {
            (i0[d], i1[d], a[d]) = linear(f32::from_bits(coord(d)), v.size[d], s);
        }
        // The 2^dims corners, weighted (1 - a) for i0 and a for i1.
        let mut sum = [0.0f32; 4];
        for corner in 0..1usize << dims {
            let mut at = [Some(0); 3];
            let mut weight = 1.0f32;
            for d in 0..dims {
                let hi = corner >> d & 1 == 1;
                at[d] = if hi { i1[d] } else { i0[d] };
                weight *= if hi { a[d] } else { 1.0 - a[d] };
            }
            let t = v.fetch_or_border(at, layer, kind);
            for (acc, t) in sum.iter_mut().zip(t) {
                *acc += weight * f32::from_bits(t);
            }
        }
        sum.map(f32::to_bits)
    }
}

/// `write_image{f,i,ui,h}` of an image with channels of `ty`. Writes
/// outside the image (undefined) do nothing.
///
/// # Safety
/// As for [`read_texel`].
#[inline(always)]
unsafe fn write_texel(image: *const ImageDesc, flags: u32, coord: *const [i32; 4], texel: *const [u32; 4], ty: ChannelType) {
    // SAFETY: the caller's pointers.
    let (v, t) = unsafe {
        let Some(v) = view(image, ty) else { return };
        (v, *texel)
    };
    // SAFETY: the caller's 4 lanes, read one by one as for reads.
    let coord = |i: usize| unsafe { coord.cast::<i32>().add(i).read() };
    let kind = TexelKind::from_flags(flags);
    let dims = v.image.dims();
    let mut at = [0i64; 3];
    for (d, slot) in at.iter_mut().enumerate().take(dims) {
        let c = coord(d) as i64;
        if !(0..v.size[d]).contains(&c) {
            return;
        }
        *slot = c;
    }
    let layer = if v.image.is_array() {
        let l = coord(dims) as i64;
        if !(0..v.layers).contains(&l) {
            return;
        }
        l
    } else {
        0
    };
    let p = v.texel(at, layer);
    let srgb = v.order.is_srgb() && kind == TexelKind::Float;
    for (c, &lane) in v.order.lanes().iter().enumerate() {
        // SAFETY: `p` is a texel of the image, whose memory kernels may
        // write (of UNORM_INT8 channels when the order is an sRGB one).
        unsafe {
            if srgb && lane < 3 {
                *p.add(c) = linear_to_srgb(f32::from_bits(t[lane]));
            } else {
                store_channel(p, v.ty, c, kind, t[lane]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip_and_round_to_nearest_even() {
        for h in 0..=0xFFFFu16 {
            let f = half_to_f32(h);
            if f.is_nan() {
                assert!(half_to_f32(f32_to_half(f)).is_nan());
            } else {
                assert_eq!(f32_to_half(f), h, "{h:#x} = {f}");
            }
        }
        assert_eq!(f32_to_half(1.0 + 1.0 / 2048.0), 0x3C00, "a tie goes to even");
        assert_eq!(f32_to_half(1.0 + 3.0 / 2048.0), 0x3C02);
        assert_eq!(f32_to_half(65520.0), 0x7C00, "rounds up to infinity");
        assert_eq!(f32_to_half(1e-8), 0);
    }

    #[test]
    fn codes_round_trip() {
        for o in ChannelOrder::ALL {
            assert_eq!(ChannelOrder::from_code(o.code()), Some(o));
        }
        for t in ChannelType::ALL {
            assert_eq!(ChannelType::from_code(t.code()), Some(t));
        }
        for t in ImageType::ALL {
            assert_eq!(ImageType::from_code(t.code()), Some(t));
        }
        for f in [0.5f32, 1.5, 2.5, -0.5, -1.5, 8_388_607.5, -8_388_607.5, 1e10, 0.49999997] {
            assert_eq!(rint(f), f.round_ties_even(), "{f}");
        }
    }

    #[test]
    fn formats_and_sizes_are_checked() {
        let rgba8 = ImageFormat::new(ChannelOrder::Rgba, ChannelType::UnormInt8);
        let img = Image::new(ImageType::Image2dArray, rgba8, &[3, 2, 4]).unwrap();
        assert_eq!((img.width(), img.height(), img.depth(), img.array_size(), img.len()), (3, 2, 1, 4, 96));
        assert!(Image::new(ImageType::Image2d, rgba8, &[3]).is_err());
        assert!(Image::new(ImageType::Image2d, rgba8, &[3, 0]).is_err());
        assert!(Image::new(ImageType::Image2d, ImageFormat::new(ChannelOrder::Bgra, ChannelType::Float), &[1, 1]).is_err());
        assert!(Image::new(ImageType::Image2d, ImageFormat::new(ChannelOrder::Depth, ChannelType::Float), &[1, 1]).is_err());
        assert!(Image::new(ImageType::Image2dDepth, ImageFormat::new(ChannelOrder::Depth, ChannelType::Float), &[1, 1]).is_ok());
        assert!(Image::new(ImageType::Image3d, rgba8, &[usize::MAX, 2, 2]).is_err());
        for (order, ty, size) in [(ChannelOrder::Rgb, ChannelType::UnormShort565, 2), (ChannelOrder::Rgbx, ChannelType::UnormInt101010, 4), (ChannelOrder::Srgb, ChannelType::UnormInt8, 3), (ChannelOrder::Srgbx, ChannelType::UnormInt8, 4)] {
            assert_eq!(ImageFormat::new(order, ty).elem_size(), size, "{order:?} {ty:?}");
            assert!(Image::new(ImageType::Image2d, ImageFormat::new(order, ty), &[2, 2]).is_ok());
        }
        for (order, ty) in [(ChannelOrder::Rgb, ChannelType::UnormInt8), (ChannelOrder::Rgba, ChannelType::UnormShort555), (ChannelOrder::Srgba, ChannelType::UnormInt16), (ChannelOrder::Sbgra, ChannelType::SnormInt8)] {
            assert!(Image::new(ImageType::Image2d, ImageFormat::new(order, ty), &[2, 2]).is_err(), "{order:?} {ty:?}");
        }
        // The inline formats are the ones the generated code converts
        // without a call; images of other formats take the runtime's.
        for f in INLINE_FORMATS {
            assert!(!f.ty.is_packed() && !f.order.is_srgb() && f.ty != ChannelType::HalfFloat, "{f:?}");
            assert_eq!(Image::new(ImageType::Image2d, f, &[1, 1]).unwrap().data.desc.inline_format, f.inline_tag());
        }
        assert_eq!(Image::new(ImageType::Image2d, ImageFormat::new(ChannelOrder::Rgba, ChannelType::HalfFloat), &[1, 1]).unwrap().data.desc.inline_format, 0);
        let s = Sampler::new(true, AddressingMode::MirroredRepeat, FilterMode::Linear);
        assert_eq!(s.bits(), 0x29);
        assert_eq!(Sampler::from_bits(s.bits()), s);
    }
}
