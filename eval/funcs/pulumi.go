package funcs

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// Assets and archives of local files carry the hash of their contents, and
// their paths are relative to the project root (absolute if the file is
// outside it); remote ones have no hash.

// StringAssetFunc returns an asset of literal text.
var StringAssetFunc = unaryFunc("Returns an asset of literal text.", "text", values.AssetType, func(text string) (cty.Value, error) {
	return values.AssetVal(resource.NewTextAsset(text)), nil
})

func (s *scope) fileAssetFunc() function.Function {
	return unaryFunc("Returns an asset of the file at a path.", "path", values.AssetType, func(given string) (cty.Value, error) {
		p, err := s.regularFile(given)
		if err != nil {
			return cty.NilVal, err
		}
		a, err := resource.NewPathAsset(p)
		if err != nil {
			return cty.NilVal, err
		}
		a.Path = s.assetPath(p)
		return values.AssetVal(a), nil
	})
}

func (s *scope) fileArchiveFunc() function.Function {
	return unaryFunc("Returns an archive of a directory, or of a .tar, .tgz, .tar.gz, .zip or .jar file.", "path", values.ArchiveType, func(given string) (cty.Value, error) {
		p, info, err := s.stat(given)
		if err != nil {
			return cty.NilVal, err
		}
		if !info.IsDir() && !isArchiveFile(p) {
			return cty.NilVal, fmt.Errorf("%s is not an archive; give a directory or a .tar, .tgz, .tar.gz, .zip or .jar file, or use fileasset for a single file", given)
		}
		a := &resource.Archive{Path: p}
		if err := a.EnsureHash(""); err != nil {
			return cty.NilVal, err
		}
		a.Path = s.assetPath(p)
		return values.ArchiveVal(a), nil
	})
}

func isArchiveFile(p string) bool {
	lower := strings.ToLower(p)
	for _, ext := range []string{".tar", ".tgz", ".tar.gz", ".zip", ".jar"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// assetPath returns the path an asset records for the file at p.
func (s *scope) assetPath(p string) string {
	if rel, err := filepath.Rel(s.root, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// RemoteAssetFunc returns an asset of the contents at an http, https or
// file URI. Only file URIs are hashed.
var RemoteAssetFunc = remoteFunc("Returns an asset of the contents at an http, https or file URI.", values.AssetType, func(uri string) (cty.Value, func(string) error) {
	a := &resource.Asset{URI: uri}
	return values.AssetVal(a), a.EnsureHash
})

// RemoteArchiveFunc returns an archive of the file at an http, https or file
// URI. Only file URIs are hashed.
var RemoteArchiveFunc = remoteFunc("Returns an archive of the file at an http, https or file URI.", values.ArchiveType, func(uri string) (cty.Value, func(string) error) {
	a := &resource.Archive{URI: uri}
	return values.ArchiveVal(a), a.EnsureHash
})

// remoteFunc returns a function of a URI whose result, of type ty, build
// makes, with the method that hashes it.
func remoteFunc(description string, ty cty.Type, build func(uri string) (cty.Value, func(dir string) error)) function.Function {
	return unaryFunc(description, "uri", ty, func(uri string) (cty.Value, error) {
		v, ensureHash := build(uri)
		return v, checkRemote(uri, ensureHash)
	})
}

// checkRemote checks the URI of a remote asset or archive, and hashes a
// local one with ensureHash.
func checkRemote(uri string, ensureHash func(dir string) error) error {
	u, err := url.Parse(uri)
	if err != nil {
		return fmt.Errorf("%q is not a URI: %w", uri, err)
	}
	switch u.Scheme {
	case "http", "https":
		return nil
	case "file":
		return ensureHash("")
	}
	return fmt.Errorf("%q is not an http, https or file URI; for a file of the program use fileasset or filearchive", uri)
}

// AssetArchiveFunc returns an archive of assets and archives by name.
var AssetArchiveFunc = function.New(&function.Spec{
	Description:  "Returns an archive of the given assets and archives, by name.",
	Params:       []function.Parameter{{Name: "assets", Type: cty.DynamicPseudoType}},
	Type:         function.StaticReturnType(values.ArchiveType),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		m := args[0]
		if !m.Type().IsObjectType() && !m.Type().IsMapType() {
			return cty.NilVal, function.NewArgErrorf(0, "assetarchive needs an object of assets and archives by name, not %s", m.Type().FriendlyName())
		}
		if !m.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		a := &resource.Archive{Assets: map[string]any{}}
		hashed := true
		for it := m.ElementIterator(); it.Next(); {
			k, e := it.Element()
			name := k.AsString()
			switch {
			case e.IsNull():
				return cty.NilVal, function.NewArgErrorf(0, "member %q is null", name)
			case e.Type() == values.AssetType:
				member := e.EncapsulatedValue().(*resource.Asset)
				a.Assets[name], hashed = member, hashed && member.Hash != ""
			case e.Type() == values.ArchiveType:
				member := e.EncapsulatedValue().(*resource.Archive)
				a.Assets[name], hashed = member, hashed && member.Hash != ""
			default:
				return cty.NilVal, function.NewArgErrorf(0, "member %q is %s; the members of an archive are assets and archives (from fileasset, stringasset, filearchive and the like)", name, e.Type().FriendlyName())
			}
		}
		if hashed {
			if err := a.EnsureHash(""); err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
		}
		return values.ArchiveVal(a), nil
	},
})

// PulumiResourceNameFunc returns the name of a resource, from its URN.
var PulumiResourceNameFunc = urnFunc("Returns the name of a resource (the last part of its URN).", resource.URN.Name)

// PulumiResourceTypeFunc returns the type of a resource, from its URN.
var PulumiResourceTypeFunc = urnFunc("Returns the type of a resource, from its URN.", resource.URN.Type)

// PulumiResourceURNFunc returns the URN of a resource.
var PulumiResourceURNFunc = urnFunc("Returns the URN of a resource.", func(u resource.URN) string { return string(u) })

// urnFunc returns a function of a resource (an object with a "urn"
// attribute, or a Terraform resource's object, marked values.Resource) or
// of a URN whose result is part of the URN. The result has the marks of the
// resource value and of its URN, but not those of its other attributes.
func urnFunc(description string, part func(resource.URN) string) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{{Name: "resource", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, marks := args[0].Unmark()
			if urn := values.ResourceOf(args[0]); urn != "" {
				return cty.StringVal(part(urn)).WithMarks(marks), nil
			}
			if v.IsKnown() && v.Type().IsObjectType() && v.Type().HasAttribute("urn") {
				var urnMarks cty.ValueMarks
				v, urnMarks = v.GetAttr("urn").Unmark()
				marks = cty.NewValueMarks(marks, urnMarks)
			}
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(cty.String).WithMarks(marks), nil
			case v.Type() != cty.String:
				return cty.NilVal, function.NewArgErrorf(0, "needs a resource (or its URN), not %s", v.Type().FriendlyName())
			case v.IsNull():
				return cty.NilVal, function.NewArgErrorf(0, "the resource's urn is null")
			}
			urn, err := resource.ParseURN(v.AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return cty.StringVal(part(urn)).WithMarks(marks), nil
		},
	})
}
