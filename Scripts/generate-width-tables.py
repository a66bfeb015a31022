#!/usr/bin/env python3
# Regenerates Sources/TerminalKit/Text/WidthTables.swift from Python's unicodedata:
#   python3 Scripts/generate-width-tables.py > Sources/TerminalKit/Text/WidthTables.swift
import unicodedata, sys
def ranges(pred):
    out=[]; start=None
    for cp in range(0x110000):
        if pred(cp):
            if start is None: start=cp
        else:
            if start is not None: out.append((start,cp-1)); start=None
    if start is not None: out.append((start,0x10FFFF))
    return out
def zero(cp):
    if cp < 0x300: return False
    c=chr(cp); cat=unicodedata.category(c)
    if cat in ('Mn','Me'): return True
    if cat=='Cf' and cp!=0x00AD and not (0x600<=cp<=0x605) and cp not in (0x6DD,0x70F,0x8E2,0x110BD,0x110CD): return True
    if 0x1160<=cp<=0x11FF or 0xD7B0<=cp<=0xD7FF: return True
    return False
def wide(cp):
    if 0x20000<=cp<=0x2FFFD or 0x30000<=cp<=0x3FFFD: return True
    if 0x1F1E6<=cp<=0x1F1FF: return True  # regional indicators: a flag is two of them, drawn 2 wide
    if zero(cp): return False
    return unicodedata.east_asian_width(chr(cp)) in ('W','F')
def emit(name, rs, doc):
    lines=[f"    /// {doc}", f"    static let {name}: [UInt32] = ["]
    row=[]
    for a,b in rs:
        row.append(f"0x{a:X}, 0x{b:X}")
        if len(row)==4: lines.append("        "+", ".join(row)+","); row=[]
    if row: lines.append("        "+", ".join(row)+",")
    lines.append("    ]")
    return "\n".join(lines)
z=ranges(zero); w=ranges(wide)
print("// Generated from the Unicode %s character database (East_Asian_Width W/F, categories Mn/Me/Cf," % unicodedata.unidata_version)
print("// Hangul medial/final jamo). Flat [first, last, first, last, ...] pairs sorted by code point.")
print("// Do not edit by hand: regenerate with Scripts/generate-width-tables.py.")
print()
print("enum WidthTables {")
print(emit("zeroWidth", z, "Code point ranges that occupy no column (combining marks, format characters)."))
print()
print(emit("doubleWidth", w, "Code point ranges that occupy two columns (East Asian Wide/Fullwidth, emoji presentation)."))
print("}")
print(len(z), len(w), file=sys.stderr)
