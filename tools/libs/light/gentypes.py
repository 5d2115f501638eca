#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
Generate libxl's types from the type description.

  gentypes.py <idl> <_libxl_types.h> <_libxl_types_json.h> <_libxl_types.c>

For every Struct: the typedef, <type>_init, <type>_init_<keyvar> (when it
holds a KeyedUnion), <type>_dispose (unless dispose_fn=None), <type>_copy
(a deep copy), <type>_gen_json and <type>_to_json.
For every Enumeration: the typedef, <type>_to_string, <type>_from_string,
<type>_string_table, <type>_gen_json and <type>_to_json.

JSON follows Xen's rules: a struct is an object; a field is left out while
it holds its default (its init_val, its type's "is default" test, zero /
NULL / false otherwise); nested structs are always written; a KeyedUnion
member is written under the key "<keyvar>.<member>"; enums as lower-case
strings.
"""

import sys

import idl


def lines_to_text(lines):
    return "".join(l + "\n" for l in lines)


class Lv(object):
    """An lvalue in generated code: 'p->x', 'p->u.pvh.pvshim', ..."""

    def __init__(self, expr, is_ptr):
        self.expr = expr        # the C expression
        self.is_ptr = is_ptr    # expr is a pointer to the object

    def member(self, name):
        if self.is_ptr:
            return Lv("%s->%s" % (self.expr, name), False)
        return Lv("%s.%s" % (self.expr, name), False)

    def ref(self):
        return self.expr if self.is_ptr else "&" + self.expr

    def val(self):
        return "*" + self.expr if self.is_ptr else self.expr

    def index(self, i):
        return Lv("%s[%s]" % (self.val(), i), False)


def pass_to(ty, lv):
    """Argument passing an instance of ty to one of its functions."""
    return lv.ref() if ty.passby == idl.PASS_BY_REFERENCE else lv.val()


def is_anon(ty):
    return isinstance(ty, idl.Aggregate) and ty.typename is None


# ----------------------------------------------------------------------------
# Definitions (the header)

def enum_define(ty):
    out = ["typedef enum %s {" % ty.typename]
    for v in ty.values:
        out.append("    %s = %d," % (v.name, v.value))
    out.append("} %s;" % ty.typename)
    t = ty.typename
    out += [
        "const char *%s_to_string(%s p);" % (t, t),
        "int %s_from_string(const char *s, %s *e);" % (t, t),
        "extern libxl_enum_string_table %s_string_table[];" % t,
        "char *%s_to_json(libxl_ctx *ctx, %s p);" % (t, t),
        "int %s_from_json(libxl_ctx *ctx, %s *p, const char *s);" % (t, t),
    ]
    return out


def struct_define(ty):
    t = ty.typename
    out = ["typedef struct %s {" % t]
    out.extend(ty.c_body(""))
    out.append("} %s;" % t)
    out.append("void %s_init(%s *p);" % (t, t))
    for f in ty.fields:
        if isinstance(f.type, idl.KeyedUnion):
            kv = f.type.keyvar
            out.append("void %s_init_%s(%s *p, %s %s);"
                       % (t, kv.name, t, kv.type.typename, kv.name))
    if ty.dispose_fn is not None:
        out.append("void %s_dispose(%s *p);" % (t, t))
    out.append("void %s_copy(libxl_ctx *ctx, %s *dst, const %s *src);"
               % (t, t, t))
    out.append("char *%s_to_json(libxl_ctx *ctx, %s *p);" % (t, t))
    out.append("int %s_from_json(libxl_ctx *ctx, %s *p, const char *s);"
               % (t, t))
    return out


# ----------------------------------------------------------------------------
# _init

def field_init_val(f):
    if f.init_val is not None:
        return f.init_val
    return f.type.init_val


def gen_init(ty, lv, parent, out, indent):
    """Statements giving lv (of type ty) its default; memory is zeroed."""
    if isinstance(ty, idl.Aggregate) and not is_anon(ty) and parent is not None:
        out.append("%s%s(%s);" % (indent, ty.init_fn, lv.ref()))
        return
    if isinstance(ty, idl.Aggregate):
        for f in ty.fields:
            flv = lv.member(f.name)
            if isinstance(f.type, idl.KeyedUnion):
                kv = f.type.keyvar
                if kv.type.init_val is not None:
                    out.append("%s%s = %s;" % (indent, lv.member(kv.name).expr,
                                               kv.type.init_val))
                continue
            if f.init_val is not None:
                out.append("%s%s = %s;" % (indent, flv.expr, f.init_val))
                continue
            gen_init(f.type, flv, lv, out, indent)
        return
    if ty.init_val is not None:
        out.append("%s%s = %s;" % (indent, lv.val(), ty.init_val))
    elif ty.init_fn is not None:
        out.append("%s%s(%s);" % (indent, ty.init_fn, lv.ref()))


def struct_init(ty):
    t = ty.typename
    out = ["void %s_init(%s *p)" % (t, t), "{",
           "    memset(p, 0, sizeof(*p));"]
    gen_init(ty, Lv("p", True), None, out, "    ")
    out += ["}", ""]
    for f in ty.fields:
        if not isinstance(f.type, idl.KeyedUnion):
            continue
        ku = f.type
        kv = ku.keyvar
        key = "p->" + kv.name
        out += ["void %s_init_%s(%s *p, %s %s)"
                % (t, kv.name, t, kv.type.typename, kv.name), "{"]
        if kv.type.init_val is not None:
            out.append("    assert(%s == %s);" % (key, kv.type.init_val))
        else:
            out.append("    assert(!%s);" % key)
        out.append("    %s = %s;" % (key, kv.name))
        out.append("    switch (%s) {" % key)
        for m in ku.fields:
            out.append("    case %s:" % m.enumname)
            if m.type is not None:
                gen_init(m.type, Lv("p->%s.%s" % (f.name, m.name), False),
                         Lv("p", True), out, "        ")
            out.append("        break;")
        out += ["    default:", "        break;", "    }", "}", ""]
    return out


# ----------------------------------------------------------------------------
# _dispose

def needs_dispose(ty):
    if ty is None:
        return False
    if isinstance(ty, idl.Array):
        return True
    if isinstance(ty, idl.Aggregate):
        if not is_anon(ty):
            return ty.dispose_fn is not None
        if isinstance(ty, idl.KeyedUnion):
            return any(needs_dispose(m.type) for m in ty.fields)
        return any(needs_dispose(f.type) for f in ty.fields)
    return ty.dispose_fn is not None


def gen_dispose(ty, lv, parent, out, indent):
    if isinstance(ty, idl.Array):
        el = ty.elem_type
        if needs_dispose(el):
            out.append("%sfor (int i = 0; i < %s; i++)"
                       % (indent, parent.member(ty.lenvar).expr))
            gen_dispose(el, lv.index("i"), parent, out, indent + "    ")
        out.append("%sfree(%s);" % (indent, lv.val()))
        return
    if isinstance(ty, idl.KeyedUnion):
        key = parent.member(ty.keyvar.name).expr
        out.append("%sswitch (%s) {" % (indent, key))
        for m in ty.fields:
            out.append("%scase %s:" % (indent, m.enumname))
            if needs_dispose(m.type):
                gen_dispose(m.type, lv.member(m.name), parent, out,
                            indent + "    ")
            out.append("%s    break;" % indent)
        out += ["%sdefault:" % indent, "%s    break;" % indent,
                "%s}" % indent]
        return
    if isinstance(ty, idl.Aggregate) and (is_anon(ty) or parent is None):
        for f in ty.fields:
            if f.const and f.type.dispose_fn == "free":
                out.append("%sfree((void *)%s);"
                           % (indent, lv.member(f.name).expr))
            elif needs_dispose(f.type):
                gen_dispose(f.type, lv.member(f.name), lv, out, indent)
        return
    if ty.dispose_fn is not None:
        out.append("%s%s(%s);" % (indent, ty.dispose_fn, pass_to_ref(ty, lv)))


def pass_to_ref(ty, lv):
    # free() takes the pointer value; the others take the object's address
    if ty.dispose_fn == "free":
        return lv.val()
    return lv.ref()


def struct_dispose(ty):
    t = ty.typename
    out = ["void %s_dispose(%s *p)" % (t, t), "{", "    if (!p)",
           "        return;"]
    gen_dispose(ty, Lv("p", True), None, out, "    ")
    out += ["    memset(p, 0, sizeof(*p));", "}", ""]
    return out


# ----------------------------------------------------------------------------
# _gen_json

def check(out, indent):
    out += ["%sif (s != yajl_gen_status_ok)" % indent,
            "%s    goto out;" % indent]


def json_key(out, indent, key):
    out.append('%ss = libxl__yajl_gen_asciiz(hand, "%s");' % (indent, key))
    check(out, indent)


def default_test(f, lv, parent):
    """C condition true when field f (at lv) differs from its default."""
    ty = f.type
    if isinstance(ty, idl.Aggregate):
        return None                         # always written
    if isinstance(ty, idl.Array):
        return "%s && %s" % (lv.expr, parent.member(ty.lenvar).expr)
    iv = field_init_val(f)
    if iv is not None:
        if isinstance(ty, idl.Number):
            return "%s != (%s)(%s)" % (lv.expr, ty.typename, iv)
        return "%s != %s" % (lv.expr, iv)
    if ty.check_default_fn is not None:
        return "!%s(%s)" % (ty.check_default_fn, lv.ref())
    return lv.expr


def gen_json(ty, lv, parent, out, indent):
    if isinstance(ty, idl.Array):
        out.append("%ss = yajl_gen_array_open(hand);" % indent)
        check(out, indent)
        out.append("%sfor (int i = 0; i < %s; i++) {"
                   % (indent, parent.member(ty.lenvar).expr))
        gen_json(ty.elem_type, lv.index("i"), parent, out, indent + "    ")
        out.append("%s}" % indent)
        out.append("%ss = yajl_gen_array_close(hand);" % indent)
        check(out, indent)
        return
    if isinstance(ty, idl.Enumeration):
        out.append("%ss = libxl__yajl_gen_enum(hand, %s_to_string(%s));"
                   % (indent, ty.typename, lv.val()))
        check(out, indent)
        return
    if isinstance(ty, idl.KeyedUnion):
        key = parent.member(ty.keyvar.name).expr
        out.append("%sswitch (%s) {" % (indent, key))
        for m in ty.fields:
            out.append("%scase %s:" % (indent, m.enumname))
            if m.type is not None:
                gen_json(m.type, lv.member(m.name), parent, out,
                         indent + "    ")
            else:
                out.append("%s    s = yajl_gen_map_open(hand);" % indent)
                check(out, indent + "    ")
                out.append("%s    s = yajl_gen_map_close(hand);" % indent)
                check(out, indent + "    ")
            out.append("%s    break;" % indent)
        out += ["%sdefault:" % indent, "%s    break;" % indent,
                "%s}" % indent]
        return
    if isinstance(ty, idl.Aggregate) and (is_anon(ty) or parent is None):
        out.append("%ss = yajl_gen_map_open(hand);" % indent)
        check(out, indent)
        for f in ty.fields:
            flv = lv.member(f.name)
            if f.type.private:
                continue
            if isinstance(f.type, idl.KeyedUnion):
                kv = f.type.keyvar
                out.append("%sswitch (%s) {"
                           % (indent, lv.member(kv.name).expr))
                for m in f.type.fields:
                    out.append("%scase %s:" % (indent, m.enumname))
                    json_key(out, indent + "    ", "%s.%s" % (kv.name, m.name))
                    out.append("%s    break;" % indent)
                out += ["%sdefault:" % indent,
                        "%s    break;" % indent, "%s}" % indent]
                gen_json(f.type, flv, lv, out, indent)
                continue
            cond = default_test(f, flv, lv)
            inner = indent
            if cond is not None:
                out.append("%sif (%s) {" % (indent, cond))
                inner = indent + "    "
            json_key(out, inner, f.name)
            gen_json(f.type, flv, lv, out, inner)
            if cond is not None:
                out.append("%s}" % indent)
        out.append("%ss = yajl_gen_map_close(hand);" % indent)
        check(out, indent)
        return
    if ty.json_gen_fn is None:
        raise Exception("no JSON generator for %s" % ty.typename)
    if ty.json_gen_fn in ("yajl_gen_integer", "yajl_gen_bool",
                          "libxl__uint64_gen_json", "libxl__string_gen_json"):
        out.append("%ss = %s(hand, %s);" % (indent, ty.json_gen_fn, lv.val()))
    else:
        out.append("%ss = %s(hand, %s);" % (indent, ty.json_gen_fn, lv.ref()))
    check(out, indent)


def struct_json(ty):
    t = ty.typename
    out = ["yajl_gen_status %s_gen_json(yajl_gen hand, %s *p)" % (t, t), "{",
           "    yajl_gen_status s;", ""]
    gen_json(ty, Lv("p", True), None, out, "    ")
    out += ["", " out:", "    return s;", "}", "",
            "char *%s_to_json(libxl_ctx *ctx, %s *p)" % (t, t), "{",
            "    return libxl__object_to_json(ctx, \"%s\"," % t,
            "        (libxl__gen_json_callback)&%s_gen_json, (void *)p);" % t,
            "}", ""]
    return out


# ----------------------------------------------------------------------------
# _copy

def gen_copy(ty, dst, src, pdst, psrc, out, indent, const=False):
    """Statements making dst (of type ty) a deep copy of src."""
    if isinstance(ty, idl.Array):
        n = psrc.member(ty.lenvar).expr
        out.append("%s%s = %s;" % (indent, pdst.member(ty.lenvar).expr, n))
        out.append("%s%s = libxl__copy_calloc(%s, sizeof(*%s));"
                   % (indent, dst.val(), n, src.val()))
        out.append("%sfor (int i = 0; i < %s; i++) {" % (indent, n))
        gen_copy(ty.elem_type, dst.index("i"), src.index("i"), pdst, psrc,
                 out, indent + "    ")
        out.append("%s}" % indent)
        return
    if isinstance(ty, idl.KeyedUnion):
        key = ty.keyvar.name
        out.append("%s%s = %s;" % (indent, pdst.member(key).expr,
                                   psrc.member(key).expr))
        out.append("%sswitch (%s) {" % (indent, psrc.member(key).expr))
        for m in ty.fields:
            out.append("%scase %s:" % (indent, m.enumname))
            if m.type is not None:
                gen_copy(m.type, dst.member(m.name), src.member(m.name),
                         pdst, psrc, out, indent + "    ")
            out.append("%s    break;" % indent)
        out += ["%sdefault:" % indent, "%s    break;" % indent,
                "%s}" % indent]
        return
    if isinstance(ty, idl.Aggregate) and (is_anon(ty) or pdst is None):
        for f in ty.fields:
            if f.type.private:
                continue
            gen_copy(f.type, dst.member(f.name), src.member(f.name), dst, src,
                     out, indent, f.const)
        return
    if ty.copy_fn is None:
        out.append("%s%s = %s;" % (indent, dst.expr, src.expr))
    elif const:
        out.append("%s%s(ctx, (char **)&%s, (char * const *)&%s);"
                   % (indent, ty.copy_fn, dst.expr, src.expr))
    else:
        out.append("%s%s(ctx, &%s, &%s);"
                   % (indent, ty.copy_fn, dst.expr, src.expr))


def struct_copy(ty):
    t = ty.typename
    out = ["void %s_copy(libxl_ctx *ctx, %s *dst, const %s *src)" % (t, t, t),
           "{", "    (void)ctx;", "    memset(dst, 0, sizeof(*dst));"]
    gen_copy(ty, Lv("dst", True), Lv("src", True), None, None, out, "    ")
    out += ["}", ""]
    return out


# ----------------------------------------------------------------------------
# _from_json (the parse of what _gen_json writes)

NUMBER_PARSERS = {
    "int": "libxl__int_parse_json",
    "uint8_t": "libxl__uint8_parse_json",
    "uint16_t": "libxl__uint16_parse_json",
    "uint32_t": "libxl__uint32_parse_json",
    "uint64_t": "libxl__uint64_parse_json",
    "bool": "libxl__bool_parse_json",
    "char *": "libxl__string_parse_json",
}


def parse_fn(ty):
    if isinstance(ty, (idl.Enumeration, idl.Aggregate)):
        return "libxl__%s_parse_json" % ty.typename[len("libxl_"):]
    if ty.typename in NUMBER_PARSERS:
        return NUMBER_PARSERS[ty.typename]
    return "libxl__%s_parse_json" % ty.rawname


def gen_parse(ty, lv, v, parent, pty, out, indent, const=False):
    """Statements reading lv (of type ty) from the yajl value v."""
    if isinstance(ty, idl.Array):
        n = parent.member(ty.lenvar).expr
        el = ty.elem_type
        out += ["%sif (!YAJL_IS_ARRAY(%s))" % (indent, v),
                "%s    return ERROR_FAIL;" % indent,
                "%s%s = %s->u.array.len;" % (indent, n, v),
                "%s%s = libxl__copy_calloc(%s, sizeof(*%s));"
                % (indent, lv.val(), n, lv.val()),
                "%sfor (int i = 0; i < %s; i++) {" % (indent, n)]
        elv = lv.index("i")
        if isinstance(el, idl.Aggregate):
            out.append("%s    %s(%s);" % (indent, el.init_fn, elv.ref()))
        elif el.init_val is not None:
            out.append("%s    %s = %s;" % (indent, elv.expr, el.init_val))
        gen_parse(el, elv, "%s->u.array.values[i]" % v, parent, pty, out,
                  indent + "    ")
        out.append("%s}" % indent)
        return
    if isinstance(ty, idl.Aggregate) and is_anon(ty):
        out += ["%sif (!YAJL_IS_OBJECT(%s))" % (indent, v),
                "%s    return ERROR_FAIL;" % indent]
        gen_parse_fields(ty, lv, v, pty, out, indent)
        return
    if isinstance(ty, idl.Enumeration):
        out += ["%s{" % indent, "%s    int e;" % indent, "",
                "%s    if (libxl__enum_parse_json(%s, %s_string_table, &e))"
                % (indent, v, ty.typename),
                "%s        return ERROR_FAIL;" % indent,
                "%s    %s = (%s)e;" % (indent, lv.expr, ty.typename),
                "%s}" % indent]
        return
    ref = lv.ref()
    if const:
        ref = "(char **)" + ref
    out += ["%sif (%s(%s, %s))" % (indent, parse_fn(ty), v, ref),
            "%s    return ERROR_FAIL;" % indent]


def gen_parse_fields(ty, lv, v, pty, out, indent):
    for f in ty.fields:
        t = f.type
        if t.private:
            continue
        flv = lv.member(f.name)
        if isinstance(t, idl.KeyedUnion):
            kv = t.keyvar
            for m in t.fields:
                key = "%s.%s" % (kv.name, m.name)
                keyexpr = lv.member(kv.name).expr
                fresh = ("%s == %s" % (keyexpr, kv.type.init_val)
                         if kv.type.init_val is not None else "!%s" % keyexpr)
                # one member: a second, or a key set otherwise, is an error
                out += ["%sif ((x = libxl__json_map_get(%s, \"%s\"))) {"
                        % (indent, v, key),
                        "%s    if (%s)" % (indent, fresh),
                        "%s        %s_init_%s(%s, %s);"
                        % (indent, pty.typename, kv.name, lv.ref(), m.enumname),
                        "%s    else if (%s != %s)" % (indent, keyexpr, m.enumname),
                        "%s        return ERROR_FAIL;" % indent]
                if m.type is not None:
                    # the member's own values are read from x
                    sub = []
                    gen_parse(m.type, flv.member(m.name), "xm", lv, pty, sub,
                              indent + "        ")
                    out += ["%s    {" % indent,
                            "%s        yajl_val xm = x;" % indent,
                            "%s        yajl_val x;" % indent, ""]
                    out += sub
                    out += ["%s        (void)x;" % indent, "%s    }" % indent]
                out.append("%s}" % indent)
            continue
        out.append("%sif ((x = libxl__json_map_get(%s, \"%s\"))) {"
                   % (indent, v, f.name))
        if isinstance(t, idl.Aggregate) and is_anon(t):
            out += ["%s    yajl_val xo = x;" % indent,
                    "%s    yajl_val x;" % indent, ""]
            sub = []
            gen_parse(t, flv, "xo", lv, pty, sub, indent + "    ")
            out += sub
            out.append("%s    (void)x;" % indent)
        else:
            gen_parse(t, flv, "x", lv, pty, out, indent + "    ", f.const)
        out.append("%s}" % indent)


def struct_parse(ty):
    t = ty.typename
    fn = parse_fn(ty)
    out = ["static int %s(yajl_val o, %s *p)" % (fn, t), "{",
           "    yajl_val x;", "",
           "    if (!YAJL_IS_OBJECT(o))", "        return ERROR_FAIL;"]
    gen_parse_fields(ty, Lv("p", True), "o", ty, out, "    ")
    out += ["    (void)x;", "    return 0;", "}", "",
            "int %s_from_json(libxl_ctx *ctx, %s *p, const char *s)" % (t, t),
            "{",
            "    return libxl__object_from_json(ctx, \"%s\", s," % t,
            "        (int (*)(yajl_val, void *))%s, p);" % fn,
            "}", ""]
    return out


def enum_parse(ty):
    t = ty.typename
    fn = parse_fn(ty)
    out = ["static int %s(yajl_val v, %s *p)" % (fn, t), "{", "    int e;", "",
           "    if (libxl__enum_parse_json(v, %s_string_table, &e))" % t,
           "        return ERROR_FAIL;",
           "    *p = (%s)e;" % t, "    return 0;", "}", "",
           "int %s_from_json(libxl_ctx *ctx, %s *p, const char *s)" % (t, t),
           "{",
           "    return libxl__object_from_json(ctx, \"%s\", s," % t,
           "        (int (*)(yajl_val, void *))%s, p);" % fn,
           "}", ""]
    return out


# ----------------------------------------------------------------------------
# Enumerations

def enum_impl(ty):
    t = ty.typename
    out = ["const char *%s_to_string(%s e)" % (t, t), "{", "    switch (e) {"]
    for v in ty.values:
        out += ["    case %s:" % v.name,
                "        return \"%s\";" % v.valuename.lower()]
    out += ["    default:", "        return NULL;", "    }", "}", "",
            "libxl_enum_string_table %s_string_table[] = {" % t]
    for v in ty.values:
        out.append("    { .s = \"%s\", .v = %s }," % (v.valuename.lower(),
                                                      v.name))
    out += ["    { NULL, -1 },", "};", "",
            "int %s_from_string(const char *s, %s *e)" % (t, t), "{",
            "    int v;",
            "    int rc = libxl__enum_from_string(%s_string_table, s, &v);" % t,
            "",
            "    if (!rc)",
            "        *e = (%s)v;" % t,
            "    return rc;",
            "}", "",
            "yajl_gen_status %s_gen_json(yajl_gen hand, %s *p)" % (t, t), "{",
            "    return libxl__yajl_gen_enum(hand, %s_to_string(*p));" % t,
            "}", "",
            "char *%s_to_json(libxl_ctx *ctx, %s p)" % (t, t), "{",
            "    return libxl__object_to_json(ctx, \"%s\"," % t,
            "        (libxl__gen_json_callback)&%s_gen_json, (void *)&p);" % t,
            "}", ""]
    return out


# ----------------------------------------------------------------------------

BANNER = """/*
 * DO NOT EDIT.
 *
 * This file is generated by tools/libs/light/gentypes.py from
 * tools/libs/light/libxl_types.idl.
 */
"""


def guard(name):
    return "__" + name.upper().replace(".", "_").lstrip("_") + "__"


def main(argv):
    if len(argv) != 5:
        sys.stderr.write("usage: gentypes.py <idl> <types.h> <types_json.h> "
                         "<types.c>\n")
        return 1
    idlfile, header, header_json, impl = argv[1:]
    builtins, types = idl.parse(idlfile)

    base = header.rsplit("/", 1)[-1]
    g = guard(base)
    out = ["#ifndef " + g, "#define " + g, "", BANNER.rstrip(), ""]
    for ty in types:
        if ty.extension:
            out.append("/* EXTENSION: this project's type, not in Xen. */")
        if isinstance(ty, idl.Enumeration):
            out.extend(enum_define(ty))
        else:
            out.extend(struct_define(ty))
        out.append("")
    out.append("#endif /* %s */" % g)
    write(header, out)

    base = header_json.rsplit("/", 1)[-1]
    g = guard(base)
    out = ["#ifndef " + g, "#define " + g, "", BANNER.rstrip(), ""]
    for ty in types:
        out.append("yajl_gen_status %s_gen_json(yajl_gen hand, %s *p);"
                   % (ty.typename, ty.typename))
    out += ["", "#endif /* %s */" % g]
    write(header_json, out)

    out = [BANNER.rstrip(), "", "#include \"libxl_internal.h\"",
           "#include \"libxl_json_parse.h\"", ""]
    # the parsers call each other (nested types): prototypes first
    for ty in types:
        t = ty.typename
        arg = "v" if isinstance(ty, idl.Enumeration) else "o"
        out.append("static int %s(yajl_val %s, %s *p);" % (parse_fn(ty), arg, t))
    out.append("")
    for ty in types:
        if isinstance(ty, idl.Enumeration):
            out.extend(enum_parse(ty))
        else:
            out.extend(struct_parse(ty))
    for ty in types:
        if isinstance(ty, idl.Enumeration):
            out.extend(enum_impl(ty))
        else:
            out.extend(struct_init(ty))
            if ty.dispose_fn is not None:
                out.extend(struct_dispose(ty))
            out.extend(struct_copy(ty))
            out.extend(struct_json(ty))
    write(impl, out)
    return 0


def write(path, lines):
    with open(path + ".tmp", "w") as fh:
        fh.write(lines_to_text(lines))
    import os
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
