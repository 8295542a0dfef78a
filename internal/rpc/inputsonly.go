package rpc

// InputsOnlyHeader is the response header of GetPluginInfo by which a
// provider plugin declares provider.PluginInfo.InputsOnly: that its Check
// and Diff answer from their requests and its configuration alone. It is
// Cairn's own; Pulumi's engine ignores headers it does not know.
const InputsOnlyHeader = "cairn-inputs-only"
