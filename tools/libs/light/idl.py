# SPDX-License-Identifier: GPL-2.0-only
"""
The libxl type description language.

A type description (libxl_types.idl) is Python syntax evaluated with the
names defined here in scope.  Each top-level assignment of a Type is one
libxl type; gentypes.py turns the list into C definitions and the
_init/_dispose/_gen_json/_to_json (and enum _to_string/_from_string)
functions, the way Xen's tools/libs/light/idl.py and gentypes.py do.

Vocabulary (as in Xen's IDL):
  namespace("libxl_")                 prefix for the types that follow
  Builtin("uuid", ...)                a type written by hand in C
  integer, bool, string, uint8..uint64, UInt(64, init_val=...)
  Enumeration("name", [(value, "NAME"), ...], init_val=...)
  Struct("name", [("field", type[, {"init_val": "...", "const": True}]),
                  ...], dir=..., dispose_fn=None)
  Struct(None, [...])                 an anonymous struct (for unions)
  KeyedUnion(None, enum_type, "keyvar", [("enumvalue", type|None), ...])
  Array(elem_type, "lenvar")          'int lenvar; elem_type *field;'
"""

import sys

PASS_BY_VALUE = 1
PASS_BY_REFERENCE = 2

DIR_NONE = 0
DIR_IN = 1
DIR_OUT = 2
DIR_BOTH = 3

_state = {"namespace": "libxl_"}


def namespace(prefix):
    if not isinstance(prefix, str):
        raise TypeError("namespace() wants a string")
    _state["namespace"] = prefix


class Type(object):
    """Anything a field can be."""

    def __init__(self, name, **kw):
        ns = kw.pop("namespace", _state["namespace"])
        self.rawname = name
        if name is None:
            self.typename = None
        elif ns is None:
            self.typename = name
        else:
            self.typename = ns + name
        self.namespace = ns
        self.passby = kw.pop("passby", PASS_BY_VALUE)
        self.dir = kw.pop("dir", DIR_BOTH)
        # C expression a fresh instance holds (None: all-bits-zero)
        self.init_val = kw.pop("init_val", None)
        # void fn(T *) that initialises an instance (builtins only)
        self.init_fn = kw.pop("init_fn", None)
        # void fn(T *) that frees what an instance owns (None: nothing)
        self.dispose_fn = kw.pop("dispose_fn", None)
        # yajl_gen_status fn(yajl_gen, T or T *) that emits JSON
        self.json_gen_fn = kw.pop("json_gen_fn", None)
        # int fn(const T *) true when the value is the default
        self.check_default_fn = kw.pop("check_default_fn", None)
        # void fn(libxl_ctx *, T *dst, const T *src) (None: assignment)
        self.copy_fn = kw.pop("copy_fn", None)
        # libxl's own state: not copied, not written as JSON
        self.private = kw.pop("private", False)
        self.extension = kw.pop("extension", False)
        if kw:
            raise TypeError("%s: unknown attributes %s" % (name, sorted(kw)))

    def c_decl(self, field_name):
        """The C declaration of a field of this type."""
        return "%s %s" % (self.typename, field_name)

    def arg(self, expr, byref_expr):
        """How to pass the lvalue 'expr' to a function of this type."""
        if self.passby == PASS_BY_REFERENCE:
            return "&" + expr if not byref_expr else expr
        return expr


class Builtin(Type):
    """A type implemented by hand (libxl_json.c, libxl_utils.c)."""


class Number(Builtin):
    def __init__(self, ctype, **kw):
        kw.setdefault("namespace", None)
        kw.setdefault("json_gen_fn", "yajl_gen_integer")
        self.signed = kw.pop("signed", False)
        Builtin.__init__(self, ctype, **kw)


class UInt(Number):
    def __init__(self, width, **kw):
        if width == 64:
            kw.setdefault("json_gen_fn", "libxl__uint64_gen_json")
        self.width = width
        Number.__init__(self, "uint%d_t" % width, **kw)


class EnumValue(object):
    def __init__(self, enum, value, name):
        self.enum = enum
        self.value = value
        self.valuename = name.upper()
        # LIBXL_DOMAIN_TYPE_PVH; with value_namespace="" (libxl_error)
        # the values are spelt ERROR_FAIL etc., as in Xen
        self.name = (enum.value_namespace.upper() +
                     enum.rawname.upper() + "_" + self.valuename)


class Enumeration(Type):
    def __init__(self, name, values, **kw):
        ns = kw.get("namespace", _state["namespace"])
        self.value_namespace = kw.pop("value_namespace", ns)
        Type.__init__(self, name, **kw)
        self.json_gen_fn = self.typename + "_gen_json"
        self.values = [EnumValue(self, v, n) for (v, n) in values]

    def lookup(self, name):
        for v in self.values:
            if v.valuename == name.upper():
                return v
        raise ValueError("%s has no value %s" % (self.typename, name))


class Field(object):
    def __init__(self, ty, name, init_val=None, enumname=None, const=False):
        self.type = ty
        self.name = name
        self.init_val = init_val
        self.enumname = enumname
        self.const = const      # 'const char *' (a string libxl owns)


class Aggregate(Type):
    kind = None

    def __init__(self, name, fields, **kw):
        kw.setdefault("passby", PASS_BY_REFERENCE)
        # dispose_fn=None: the type owns nothing and has no _dispose (Xen's
        # sched_credit_params)
        no_dispose = "dispose_fn" in kw and kw.pop("dispose_fn") is None
        Type.__init__(self, name, **kw)
        if self.typename is not None:
            self.init_fn = self.typename + "_init"
            if not no_dispose:
                self.dispose_fn = self.typename + "_dispose"
            self.copy_fn = self.typename + "_copy"
            self.json_gen_fn = self.typename + "_gen_json"
        self.fields = []
        for f in fields:
            if len(f) == 2:
                (n, t), opts = f, {}
            else:
                n, t, opts = f
            self.fields.append(Field(t, n, **opts))

    def c_body(self, indent):
        out = []
        for f in self.fields:
            out.extend(field_decl(f, indent + "    "))
        return out


class Struct(Aggregate):
    kind = "struct"


class KeyedUnion(Aggregate):
    """A union whose live member is chosen by a sibling enum field."""
    kind = "union"

    def __init__(self, name, keyvar_type, keyvar_name, members, **kw):
        Aggregate.__init__(self, name, [], **kw)
        if not isinstance(keyvar_type, Enumeration):
            raise TypeError("KeyedUnion key must be an Enumeration")
        self.keyvar = Field(keyvar_type, keyvar_name)
        for (valuename, ty) in members:
            ev = keyvar_type.lookup(valuename)
            self.fields.append(Field(ty, valuename, enumname=ev.name))


class Array(Type):
    """A counted array: 'int lenvar; elem *name;' in the parent struct."""

    def __init__(self, elem_type, lenvar_name, **kw):
        kw.setdefault("namespace", None)
        Type.__init__(self, None, **kw)
        self.elem_type = elem_type
        self.lenvar = lenvar_name


def field_decl(f, indent):
    """C lines declaring field f (which may need several lines)."""
    t = f.type
    if isinstance(t, Array):
        return ["%sint %s;" % (indent, t.lenvar),
                "%s%s *%s;" % (indent, t.elem_type.typename, f.name)]
    if isinstance(t, KeyedUnion):
        out = ["%s%s %s;" % (indent, t.keyvar.type.typename, t.keyvar.name),
               "%sunion {" % indent]
        for m in t.fields:
            if m.type is None:
                continue
            out.extend(anon_decl(m.type, m.name, indent + "    "))
        out.append("%s} %s;" % (indent, f.name))
        return out
    if isinstance(t, Aggregate) and t.typename is None:
        return anon_decl(t, f.name, indent)
    if t.typename.endswith("*"):
        return ["%s%s%s%s;" % (indent, "const " if f.const else "",
                               t.typename, f.name)]
    return ["%s%s %s;" % (indent, t.typename, f.name)]


def anon_decl(t, name, indent):
    out = ["%s%s {" % (indent, t.kind)]
    out.extend(t.c_body(indent))
    out.append("%s} %s;" % (indent, name))
    return out


# The standard types

bool = Builtin("bool", namespace=None, json_gen_fn="yajl_gen_bool")
integer = Number("int", signed=True)
uint8 = UInt(8)
uint16 = UInt(16)
uint32 = UInt(32)
uint64 = UInt(64)
string = Builtin("char *", namespace=None, dispose_fn="free",
                 copy_fn="libxl_string_copy",
                 json_gen_fn="libxl__string_gen_json")


def parse(path):
    """Evaluate a type description; return (builtins, types) in order."""
    scope = {}
    for n, v in list(globals().items()):
        if isinstance(v, Type) or (isinstance(v, type) and issubclass(v, Type)):
            scope[n] = v
    for n in ("PASS_BY_VALUE", "PASS_BY_REFERENCE", "DIR_NONE", "DIR_IN",
              "DIR_OUT", "DIR_BOTH", "namespace"):
        scope[n] = globals()[n]

    order = []

    class Recorder(dict):
        def __setitem__(self, k, v):
            if isinstance(v, Type) and k not in self:
                order.append(k)
            dict.__setitem__(self, k, v)

    names = Recorder()
    with open(path) as fh:
        src = fh.read()
    try:
        exec(compile(src, path, "exec"), scope, names)
    except SyntaxError as e:
        sys.stderr.write("%s:%d: %s\n" % (path, e.lineno or 0, e.msg))
        raise SystemExit(1)
    types = [names[k] for k in order]
    builtins = [t for t in types if isinstance(t, Builtin)]
    return builtins, [t for t in types if not isinstance(t, Builtin)]
