package tfplugin

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// configValue converts properties to a configuration of a typed schema:
// absent nested blocks are filled in as Terraform decodes them. It returns
// the paths of the secrets among the properties.
func configValue(t *typed, m resource.Map) (cty.Value, []resource.Path, error) {
	var secrets []resource.Path
	v, err := toCty(resource.Object(m), t.ty, nil, &secrets)
	if err != nil {
		return cty.NilVal, nil, err
	}
	return fillBlocks(t.block, t.ty, v), secrets, nil
}

// failure is the check failure of a conversion error.
func failure(err error) []provider.CheckFailure {
	var ve *valueError
	if errors.As(err, &ve) {
		return []provider.CheckFailure{{Property: ve.path.String(), Reason: ve.msg}}
	}
	return []provider.CheckFailure{{Reason: err.Error()}}
}

// failures are the errors of diagnostics as check failures; warnings are
// logged.
func (p *Provider) failures(ds []*tfplugin6.Diagnostic, urn resource.URN) []provider.CheckFailure {
	var out []provider.CheckFailure
	for _, d := range ds {
		if d.GetSeverity() != tfplugin6.Diagnostic_ERROR {
			p.warn(d, string(urn))
			continue
		}
		out = append(out, provider.CheckFailure{Property: attributePath(d.GetAttribute()).String(), Reason: text(d)})
	}
	return out
}

// diagnose returns the errors of diagnostics as one error, saying what was
// being done; warnings are logged.
func (p *Provider) diagnose(ds []*tfplugin6.Diagnostic, doing string) error {
	var errs []string
	for _, d := range ds {
		if d.GetSeverity() != tfplugin6.Diagnostic_ERROR {
			p.warn(d, doing)
			continue
		}
		msg := text(d)
		if path := attributePath(d.GetAttribute()); len(path) > 0 {
			msg = path.String() + ": " + msg
		}
		errs = append(errs, msg)
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s: %s", doing, errs[0])
	}
	return fmt.Errorf("%s:\n  - %s", doing, strings.Join(errs, "\n  - "))
}

// warn logs a warning diagnostic. It takes no lock: the log is set once,
// by Parameterize, before anything is asked of the provider.
func (p *Provider) warn(d *tfplugin6.Diagnostic, about string) {
	p.log.Warn(text(d), "about", about, "attribute", attributePath(d.GetAttribute()).String())
}

// text is a diagnostic's summary and detail.
func text(d *tfplugin6.Diagnostic) string {
	if d.GetDetail() == "" {
		return d.GetSummary()
	}
	return d.GetSummary() + ": " + d.GetDetail()
}

// attributePath is an attribute path as a property path.
func attributePath(a *tfplugin6.AttributePath) resource.Path {
	var out resource.Path
	for _, s := range a.GetSteps() {
		switch sel := s.GetSelector().(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			out = append(out, sel.AttributeName)
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			out = append(out, sel.ElementKeyString)
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			out = append(out, int(sel.ElementKeyInt))
		}
	}
	return out
}

// rpcError describes a failed call. A provider that stopped answering may
// or may not have done what it was asked. (Calls follow Parameterize,
// which set p.pkg, so it is read without the lock.)
func (p *Provider) rpcError(rpc string, err error) error {
	if c := status.Code(err); c == codes.Unavailable || c == codes.Canceled {
		return fmt.Errorf("the Terraform provider %s failed during %s: %v: %w", p.pkg, rpc, err, provider.ErrOutcomeUnknown)
	}
	return fmt.Errorf("the Terraform provider %s failed during %s: %w", p.pkg, rpc, err)
}
