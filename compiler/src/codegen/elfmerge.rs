//! Joins relocatable ELF objects into one, as `ld -r` does, for the
//! objects [`super::split`] generates on several threads from parts of one
//! module: each input section's contents are appended to the output
//! section of the same name, type and flags; symbols are carried over with
//! their values moved by where their section's contents landed; global
//! symbols defined in one part and referenced by another become one
//! symbol; relocations are carried over likewise.
//!
//! It handles what LLVM's ELF writer produces for clc's native modules
//! without debug information: `PROGBITS`, `NOBITS` and `NOTE` sections
//! (code, constants, data, `.bss`, `.note.GNU-stack`) and `RELA`
//! relocations. Anything else (comdat groups, unwind tables, address
//! significance tables, common symbols, implicit-addend relocations) is an
//! error, on which the caller compiles the module whole instead.
//!
//! Mergeable constant sections (`SHF_MERGE`) keep their contents but lose
//! the flag, except one-byte strings: the `object` crate writes an entry
//! size only for those, and a mergeable section without one is invalid.
//! The linker then keeps duplicate constants instead of folding them.

use object::elf;
use object::read::elf::{ElfFile64, FileHeader as _, SectionHeader as _, Sym as _};
use object::read::{Object as _, ObjectSection as _, ObjectSymbol as _, RelocationTarget, SectionIndex, SymbolIndex};
use object::write::{Object, Relocation, SectionId, Symbol, SymbolId, SymbolSection};
use object::{Endianness, RelocationFlags, SectionFlags, SectionKind, SymbolFlags};
use rustc_hash::FxHashMap;

/// One object made of `parts` (at least one), or why they cannot be joined.
pub fn merge(parts: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    let files: Vec<ElfFile64<Endianness>> = parts.iter().map(|p| ElfFile64::parse(p.as_slice()).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let Some(first) = files.first() else { return Err("no objects to join".into()) };
    if first.elf_header().e_type(first.endian()) != elf::ET_REL {
        return Err("not a relocatable object".into());
    }
    let mut out = Object::new(object::BinaryFormat::Elf, first.architecture(), first.endian());
    out.flags = first.flags();
    // Global definitions first, so references from any part find them.
    let mut globals: FxHashMap<Vec<u8>, SymbolId> = FxHashMap::default();
    let mut sections: FxHashMap<(Vec<u8>, u32, u64), SectionId> = FxHashMap::default();
    // Per part: where each input section's contents went.
    let mut placed: Vec<FxHashMap<SectionIndex, (SectionId, u64)>> = Vec::new();
    for file in &files {
        if file.architecture() != first.architecture() || file.endian() != first.endian() {
            return Err("objects for different machines".into());
        }
        let mut at = FxHashMap::default();
        for s in file.sections() {
            let h = s.elf_section_header();
            let (sh_type, sh_flags) = (h.sh_type(file.endian()), h.sh_flags(file.endian()));
            match sh_type {
                elf::SHT_NULL | elf::SHT_SYMTAB | elf::SHT_STRTAB | elf::SHT_RELA => continue,
                elf::SHT_PROGBITS | elf::SHT_NOBITS | elf::SHT_NOTE => {}
                other => return Err(format!("section {} of type {other:#x}", s.name().unwrap_or("?"))),
            }
            let name = s.name_bytes().map_err(|e| e.to_string())?.to_vec();
            let strings = sh_flags & u64::from(elf::SHF_STRINGS) != 0 && h.sh_entsize(file.endian()) == 1;
            let sh_flags = if strings { sh_flags } else { sh_flags & !u64::from(elf::SHF_MERGE | elf::SHF_STRINGS) };
            let key = (name.clone(), sh_type, sh_flags);
            let id = *sections.entry(key).or_insert_with(|| {
                let kind = match sh_type {
                    elf::SHT_NOBITS => SectionKind::UninitializedData,
                    elf::SHT_NOTE => SectionKind::Note,
                    _ if strings => SectionKind::ReadOnlyString,
                    _ => SectionKind::Other,
                };
                let id = out.add_section(Vec::new(), name, kind);
                // The kind gives the type (`NOBITS`, `NOTE`, else `PROGBITS`).
                out.section_mut(id).flags = SectionFlags::Elf { sh_flags };
                id
            });
            let align = s.align().max(1);
            let offset = if sh_type == elf::SHT_NOBITS {
                out.append_section_bss(id, s.size(), align)
            } else {
                out.append_section_data(id, s.data().map_err(|e| e.to_string())?, align)
            };
            at.insert(s.index(), (id, offset));
        }
        placed.push(at);
    }
    // Symbols: per part, the output symbol of each input symbol index.
    let mut symbol_maps: Vec<FxHashMap<SymbolIndex, SymbolId>> = vec![FxHashMap::default(); files.len()];
    for pass in [Pass::GlobalDefinitions, Pass::Rest] {
        for (k, file) in files.iter().enumerate() {
            for sym in file.symbols() {
                let st = sym.elf_symbol();
                let (st_info, st_other) = (st.st_info(), st.st_other());
                let st_type = st_info & 0xf;
                let global = !sym.is_local();
                let defined = !sym.is_undefined();
                if sym.is_common() {
                    return Err(format!("common symbol {}", sym.name().unwrap_or("?")));
                }
                if st_type == elf::STT_SECTION || st_type == elf::STT_FILE {
                    continue;
                }
                let wanted = match pass {
                    Pass::GlobalDefinitions => global && defined,
                    Pass::Rest => !(global && defined),
                };
                if !wanted {
                    continue;
                }
                let name = sym.name_bytes().map_err(|e| e.to_string())?.to_vec();
                if global && let Some(&id) = globals.get(&name) {
                    if defined {
                        return Err(format!("{} is defined twice", String::from_utf8_lossy(&name)));
                    }
                    symbol_maps[k].insert(sym.index(), id);
                    continue;
                }
                let (section, value) = match sym.section_index() {
                    Some(i) => {
                        let &(id, offset) = placed[k].get(&i).ok_or_else(|| format!("symbol {} in an unknown section", String::from_utf8_lossy(&name)))?;
                        (SymbolSection::Section(id), sym.address() + offset)
                    }
                    None if sym.is_undefined() => (SymbolSection::Undefined, 0),
                    None => return Err(format!("symbol {} is absolute", String::from_utf8_lossy(&name))),
                };
                let id = out.add_symbol(Symbol {
                    name: name.clone(),
                    value,
                    size: sym.size(),
                    kind: sym.kind(),
                    scope: sym.scope(),
                    weak: sym.is_weak(),
                    section,
                    flags: SymbolFlags::Elf { st_info, st_other },
                });
                if global {
                    globals.insert(name, id);
                }
                symbol_maps[k].insert(sym.index(), id);
            }
        }
    }
    // Relocations, against the output symbols or (for section symbols)
    // the output section's symbol with the contents' offset added.
    for (k, file) in files.iter().enumerate() {
        for s in file.sections() {
            let Some(&(id, base)) = placed[k].get(&s.index()) else { continue };
            for (offset, r) in s.relocations() {
                let RelocationFlags::Elf { r_type } = r.flags() else { return Err("a relocation that is not ELF's".into()) };
                if r.has_implicit_addend() {
                    return Err("a relocation with an implicit addend".into());
                }
                let (symbol, addend) = match r.target() {
                    RelocationTarget::Symbol(i) => match symbol_maps[k].get(&i) {
                        Some(&sym) => (sym, r.addend()),
                        None => {
                            let target = file.symbol_by_index(i).map_err(|e| e.to_string())?;
                            let Some(&(tid, toff)) = target.section_index().and_then(|ti| placed[k].get(&ti)) else {
                                return Err("a relocation against a symbol that was not carried over".into());
                            };
                            (out.section_symbol(tid), r.addend() + toff as i64 + target.address() as i64)
                        }
                    },
                    _ => return Err("a relocation without a symbol".into()),
                };
                out.add_relocation(id, Relocation { offset: base + offset, symbol, addend, flags: RelocationFlags::Elf { r_type } }).map_err(|e| e.to_string())?;
            }
        }
    }
    out.write().map_err(|e| e.to_string())
}

#[derive(Clone, Copy)]
enum Pass {
    GlobalDefinitions,
    Rest,
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::{SymbolKind, SymbolScope};

    /// An object with `.text` (`code`) defining global `name`, and
    /// `.rodata` (8 bytes) read through a section-relative relocation at
    /// text offset 4 (addend 2) and a call of undefined `callee` at 12.
    fn part(name: &str, code: &[u8], callee: &str, comdat: bool) -> Vec<u8> {
        let mut o = Object::new(object::BinaryFormat::Elf, object::Architecture::X86_64, Endianness::Little);
        let text = o.add_section(Vec::new(), b".text".to_vec(), SectionKind::Text);
        o.append_section_data(text, code, 16);
        let ro = o.add_section(Vec::new(), b".rodata".to_vec(), SectionKind::ReadOnlyData);
        o.append_section_data(ro, &[name.len() as u8; 8], 8);
        let f = o.add_symbol(Symbol { name: name.as_bytes().to_vec(), value: 0, size: code.len() as u64, kind: SymbolKind::Text, scope: SymbolScope::Dynamic, weak: false, section: SymbolSection::Section(text), flags: SymbolFlags::None });
        let c = o.add_symbol(Symbol { name: callee.as_bytes().to_vec(), value: 0, size: 0, kind: SymbolKind::Text, scope: SymbolScope::Dynamic, weak: false, section: SymbolSection::Undefined, flags: SymbolFlags::None });
        let ro_sym = o.section_symbol(ro);
        o.add_relocation(text, Relocation { offset: 4, symbol: ro_sym, addend: 2, flags: RelocationFlags::Elf { r_type: elf::R_X86_64_PC32 } }).unwrap();
        o.add_relocation(text, Relocation { offset: 12, symbol: c, addend: -4, flags: RelocationFlags::Elf { r_type: elf::R_X86_64_PLT32 } }).unwrap();
        if comdat {
            o.add_comdat(object::write::Comdat { kind: object::ComdatKind::Any, symbol: f, sections: vec![text] });
        }
        o.write().unwrap()
    }

    /// Contents are appended at their alignment; symbols and relocations
    /// move with them; a call from one part to a function the other
    /// defines binds to it.
    #[test]
    fn sections_symbols_and_relocations_move_with_their_contents() {
        let a = part("alpha", &[0x90; 20], "beta", false);
        let b = part("beta", &[0xcc; 24], "memset", false);
        let joined = merge(&[a, b]).unwrap();
        let file = object::File::parse(joined.as_slice()).unwrap();
        let text = file.section_by_name(".text").unwrap();
        assert_eq!(text.size(), 32 + 24, "beta's code starts at the next 16-byte boundary");
        assert_eq!(&text.data().unwrap()[20..32], &[0; 12]);
        assert_eq!(file.section_by_name(".rodata").unwrap().data().unwrap(), [[5u8; 8], [4u8; 8]].concat());
        let sym = |n: &str| file.symbols().find(|s| s.name() == Ok(n)).unwrap();
        assert_eq!((sym("alpha").address(), sym("beta").address()), (0, 32));
        assert!(sym("beta").is_definition() && sym("memset").is_undefined());
        assert_eq!(file.symbols().filter(|s| s.name() == Ok("beta")).count(), 1, "the call's target and the definition are one symbol");
        let relocs: Vec<(u64, String, i64)> = text
            .relocations()
            .map(|(at, r)| {
                let RelocationTarget::Symbol(i) = r.target() else { panic!("{r:?}") };
                let s = file.symbol_by_index(i).unwrap();
                let target = if s.kind() == SymbolKind::Section { file.section_by_index(s.section_index().unwrap()).unwrap().name().unwrap().to_string() } else { s.name().unwrap().to_string() };
                (at, target, r.addend())
            })
            .collect();
        assert_eq!(relocs, [(4, ".rodata".to_string(), 2), (12, "beta".to_string(), -4), (36, ".rodata".to_string(), 10), (44, "memset".to_string(), -4)]);
    }

    #[test]
    fn what_cannot_be_joined_is_an_error() {
        let a = part("alpha", &[0x90; 20], "beta", false);
        assert!(merge(&[a.clone(), a.clone()]).unwrap_err().contains("alpha is defined twice"));
        assert!(merge(&[a.clone(), part("beta", &[0x90; 4], "x", true)]).unwrap_err().contains("type 0x11"), "comdat groups");
        assert!(merge(&[a, b"not an object".to_vec()]).is_err());
        assert!(merge(&[]).is_err());
    }
}
