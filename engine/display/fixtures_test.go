package display

import (
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// The stack every fixture deploys to.
const (
	fxStack   = "dev"
	fxProject = "web"
)

var (
	fxRoot     = resource.NewURN(fxStack, fxProject, "", resource.RootStackType, "web-dev")
	fxProvider = resource.NewURN(fxStack, fxProject, "", "pulumi:providers:aws", "default")
	fxProvRef  = string(fxProvider) + "::prov-1"
	fxPassword = resource.NewURN(fxStack, fxProject, "", "random:index/randomPassword:RandomPassword", "db-pass")
	fxDB       = resource.NewURN(fxStack, fxProject, "", "aws:rds/instance:Instance", "db")
	fxAssets   = resource.NewURN(fxStack, fxProject, "", "aws:s3/bucket:Bucket", "assets")
	fxServer   = resource.NewURN(fxStack, fxProject, "", "web:index:Server", "frontend")
	fxWeb      = resource.NewURN(fxStack, fxProject, "web:index:Server", "aws:ec2/instance:Instance", "web")
	fxAlerts   = resource.NewURN(fxStack, fxProject, "", "aws:sns/topic:Topic", "alerts")
	fxRole     = resource.NewURN(fxStack, fxProject, "", "aws:iam/role:Role", "ci")
	fxVpc      = resource.NewURN(fxStack, fxProject, "", "aws:ec2/vpc:Vpc", "default")
	fxToken    = resource.NewURN(fxStack, fxProject, "", "aws:ssm/parameter:Parameter", "token")
	fxQueue    = resource.NewURN(fxStack, fxProject, "", "aws:sqs/queue:Queue", "jobs")
)

// fxState builds a custom resource's state under parent, served by the
// default provider.
func fxState(urn, parent resource.URN, inputs map[string]any) *resource.State {
	s := &resource.State{URN: urn, Type: urn.Type(), Custom: true, Parent: parent, Inputs: resource.MapFromGo(inputs)}
	if resource.TypePackage(urn.Type()) == "aws" {
		s.Provider = fxProvRef
	} else {
		s.Custom = false
	}
	return s
}

// withOutputs returns s with outputs and an ID, as after a create.
func withOutputs(s *resource.State, id string, outputs map[string]any) *resource.State {
	c := s.Copy()
	c.ID = resource.ID(id)
	c.Outputs = resource.MapFromGo(outputs)
	return c
}

// fxStep returns the started and done (or failed, when errText is set)
// events of a step.
func fxStep(e deploy.StepEvent, d time.Duration, errText string) []deploy.Event {
	if e.Type == "" {
		e.Type = e.URN.Type()
	}
	if e.Provider == "" {
		if s := stateOf(&e); s != nil {
			e.Provider = s.Provider
		}
	}
	start := e
	start.Phase = deploy.StepStarted
	end := e
	end.Phase, end.Duration = deploy.StepDone, d
	if errText != "" {
		end.Phase, end.Error = deploy.StepFailed, errText
	}
	return []deploy.Event{start, end}
}

// fxPreview is a preview touching every kind of step: a stack that stays,
// creates with unknown and secret inputs, an update of nested properties
// with a hidden path, a replacement (create-before-delete) of a component's
// child, a delete, an import, a read, an update of a secret, and
// diagnostics.
func fxPreview() []deploy.Event {
	var evs []deploy.Event
	add := func(e deploy.StepEvent) {
		e.Preview = true
		evs = append(evs, fxStep(e, 0, "")...)
	}
	root := fxState(fxRoot, "", nil)
	add(deploy.StepEvent{Op: deploy.OpSame, URN: fxRoot, Old: root, New: root, Logical: true})

	pass := fxState(fxPassword, fxRoot, map[string]any{"length": 24, "special": false})
	add(deploy.StepEvent{Op: deploy.OpCreate, URN: fxPassword, New: pass, Logical: true})

	db := fxState(fxDB, fxRoot, map[string]any{
		"engine":        "postgres",
		"password":      resource.MakeSecret(resource.Unknown()),
		"subnetGroup":   resource.Unknown(),
		"allocatedSize": 20,
		"tags":          map[string]any{"team": "data"},
	})
	db.Dependencies = []resource.URN{fxPassword}
	db.PropertyDependencies = map[string][]resource.URN{"password": {fxPassword}, "subnetGroup": {fxVpc}}
	add(deploy.StepEvent{Op: deploy.OpCreate, URN: fxDB, New: db, Logical: true})

	oldAssets := withOutputs(fxState(fxAssets, fxRoot, map[string]any{
		"acl":        "private",
		"tags":       map[string]any{"env": "dev", "team": "infra", "lastDeployed": "2024-01-01"},
		"versioning": map[string]any{"enabled": false},
	}), "assets-1234", map[string]any{"arn": "arn:aws:s3:::assets-1234"})
	oldAssets.HideDiff = []string{"tags.lastDeployed"}
	newAssets := fxState(fxAssets, fxRoot, map[string]any{
		"acl":        "private",
		"tags":       map[string]any{"env": "prod", "team": "infra", "lastDeployed": "2024-02-01"},
		"versioning": map[string]any{"enabled": true},
		"website":    map[string]any{"indexDocument": "index.html", "errorDocument": "404.html"},
	})
	newAssets.HideDiff = []string{"tags.lastDeployed"}
	add(deploy.StepEvent{Op: deploy.OpUpdate, URN: fxAssets, Old: oldAssets, New: newAssets, Logical: true,
		Diffs: []string{"tags", "versioning", "website"},
		DetailedDiff: resource.DetailedDiff{
			"tags.env":           {Kind: resource.DiffUpdate, InputDiff: true},
			"tags.lastDeployed":  {Kind: resource.DiffUpdate, InputDiff: true},
			"versioning.enabled": {Kind: resource.DiffUpdate, InputDiff: true},
			"website":            {Kind: resource.DiffAdd, InputDiff: true},
		}})

	server := fxState(fxServer, fxRoot, nil)
	add(deploy.StepEvent{Op: deploy.OpSame, URN: fxServer, Old: server, New: server, Logical: true})

	oldWeb := withOutputs(fxState(fxWeb, fxServer, map[string]any{"ami": "ami-0aaa", "instanceType": "t3.micro"}),
		"i-0123", map[string]any{"publicIp": "203.0.113.7"})
	newWeb := fxState(fxWeb, fxServer, map[string]any{"ami": "ami-0bbb", "instanceType": "t3.small"})
	newWeb.Dependencies = []resource.URN{fxAssets}
	replace := deploy.StepEvent{URN: fxWeb, Old: oldWeb, New: newWeb, Keys: []string{"ami"},
		Diffs: []string{"ami", "instanceType"},
		DetailedDiff: resource.DetailedDiff{
			"ami":          {Kind: resource.DiffUpdateReplace, InputDiff: true},
			"instanceType": {Kind: resource.DiffUpdate, InputDiff: true},
		}}
	createRepl, logical := replace, replace
	createRepl.Op = deploy.OpCreateReplacement
	logical.Op, logical.Logical = deploy.OpReplace, true
	add(createRepl)
	add(logical)

	alerts := withOutputs(fxState(fxAlerts, fxRoot, map[string]any{"name": "alerts", "fifo": false}),
		"arn:aws:sns:alerts", nil)
	add(deploy.StepEvent{Op: deploy.OpDelete, URN: fxAlerts, Old: alerts, Logical: true})

	role := fxState(fxRole, fxRoot, map[string]any{"name": "ci", "maxSessionDuration": 3600})
	role.ImportID = "ci"
	add(deploy.StepEvent{Op: deploy.OpImport, URN: fxRole, New: role, Logical: true})

	vpc := fxState(fxVpc, fxRoot, map[string]any{})
	vpc.External, vpc.ID = true, "vpc-42"
	add(deploy.StepEvent{Op: deploy.OpRead, URN: fxVpc, New: vpc, Logical: true})

	oldToken := fxState(fxToken, fxRoot, map[string]any{"name": "/ci/token", "value": resource.MakeSecret(resource.String("s3cr3t-old"))})
	newToken := fxState(fxToken, fxRoot, map[string]any{"name": "/ci/token", "value": resource.MakeSecret(resource.String("s3cr3t-new"))})
	add(deploy.StepEvent{Op: deploy.OpUpdate, URN: fxToken, Old: oldToken, New: newToken, Logical: true,
		Diffs: []string{"value"}, DetailedDiff: resource.DetailedDiff{"value": {Kind: resource.DiffUpdate, InputDiff: true}}})

	createRepl.Op, createRepl.Logical = deploy.OpDeleteReplaced, false
	createRepl.New = nil
	add(createRepl)

	evs = append(evs,
		deploy.DiagEvent{URN: fxAssets, Severity: deploy.SeverityWarning, Message: "versioning keeps every object version;\nstorage costs will grow"},
		deploy.DiagEvent{URN: fxDB, Severity: deploy.SeverityDebug, Message: "checked inputs"},
		deploy.DiagEvent{Severity: deploy.SeverityInfo, Message: "using profile ci"},
		deploy.SummaryEvent{Preview: true, Duration: 1500 * time.Millisecond, Changes: map[deploy.Op]int{
			deploy.OpSame: 2, deploy.OpCreate: 2, deploy.OpUpdate: 2, deploy.OpReplace: 1, deploy.OpDelete: 1,
			deploy.OpImport: 1, deploy.OpRead: 1,
		}},
	)
	return evs
}

// fxUpdate is an update that creates two resources, updates one and fails
// to create another, with the failure's diagnostic.
func fxUpdate() []deploy.Event {
	var evs []deploy.Event
	root := fxState(fxRoot, "", nil)
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: fxRoot, New: root, Logical: true}, 0, "")...)
	pass := fxState(fxPassword, fxRoot, map[string]any{"length": 24})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: fxPassword, New: pass, Logical: true},
		40*time.Millisecond, "")...)
	server := fxState(fxServer, fxRoot, nil)
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: fxServer, New: server, Logical: true}, 0, "")...)
	web := fxState(fxWeb, fxServer, map[string]any{"ami": "ami-0bbb", "instanceType": "t3.small"})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: fxWeb, New: web, Logical: true},
		12300*time.Millisecond, "")...)
	oldQueue := fxState(fxQueue, fxRoot, map[string]any{"delaySeconds": 0, "name": "jobs"})
	newQueue := fxState(fxQueue, fxRoot, map[string]any{"delaySeconds": 5, "name": "jobs"})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpUpdate, URN: fxQueue, Old: oldQueue, New: newQueue, Logical: true,
		Diffs: []string{"delaySeconds"}}, 1200*time.Millisecond, "")...)
	db := fxState(fxDB, fxRoot, map[string]any{"engine": "postgres", "password": resource.MakeSecret(resource.String("hunter2"))})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: fxDB, New: db, Logical: true},
		3*time.Second, "creating: InvalidParameterValue: the password is too short")...)
	evs = append(evs,
		deploy.DiagEvent{URN: fxDB, Severity: deploy.SeverityError, Message: "creating: InvalidParameterValue: the password is too short"},
		deploy.SummaryEvent{Duration: 75 * time.Second, Error: "creating aws:rds/instance:Instance db failed",
			Changes: map[deploy.Op]int{deploy.OpCreate: 4, deploy.OpUpdate: 1}},
	)
	return evs
}

// fxSnapshot is a stack with a provider, a component with a child, and
// resources depending on each other; the resource pending deletion is left
// out of graphs.
func fxSnapshot() *snapshot.Snapshot {
	root := fxState(fxRoot, "", nil)
	prov := &resource.State{URN: fxProvider, Type: fxProvider.Type(), Custom: true, ID: "prov-1", Parent: fxRoot}
	pass := fxState(fxPassword, fxRoot, nil)
	pass.Provider = ""
	assets := fxState(fxAssets, fxRoot, nil)
	server := fxState(fxServer, fxRoot, nil)
	web := fxState(fxWeb, fxServer, nil)
	web.Dependencies = []resource.URN{fxAssets}
	db := fxState(fxDB, fxRoot, map[string]any{"password": "x"})
	db.Dependencies = []resource.URN{fxPassword}
	db.PropertyDependencies = map[string][]resource.URN{"password": {fxPassword}, "subnet": {fxWeb}}
	oldDB := db.Copy()
	oldDB.Delete = true
	odd := resource.NewURN(fxStack, fxProject, "", "aws:s3/bucket:Bucket", `say "hi" <now> & #1`)
	quoted := fxState(odd, fxRoot, nil)
	quoted.Dependencies = []resource.URN{fxAssets}
	return &snapshot.Snapshot{Resources: []*resource.State{root, prov, pass, assets, server, web, oldDB, db, quoted}}
}

// fxRefresh is a refresh that finds one resource changed, one gone and one
// as recorded.
func fxRefresh() []deploy.Event {
	var evs []deploy.Event
	queue := withOutputs(fxState(fxQueue, fxRoot, map[string]any{"name": "jobs"}), "jobs-1",
		map[string]any{"name": "jobs", "delaySeconds": 0})
	found := queue.Copy()
	found.Outputs = resource.MapFromGo(map[string]any{"name": "jobs", "delaySeconds": 30})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpRefresh, URN: fxQueue, Old: queue, New: found, Logical: true,
		Outcome: deploy.OpUpdate, Diffs: []string{"delaySeconds"},
		DetailedDiff: resource.DetailedDiff{"delaySeconds": {Kind: resource.DiffUpdate}}}, 200*time.Millisecond, "")...)
	alerts := withOutputs(fxState(fxAlerts, fxRoot, map[string]any{"name": "alerts"}), "arn:aws:sns:alerts", nil)
	gone := fxStep(deploy.StepEvent{Op: deploy.OpRefresh, URN: fxAlerts, Old: alerts, Logical: true, Outcome: deploy.OpDelete},
		100*time.Millisecond, "")
	evs = append(evs, gone...)
	vpc := withOutputs(fxState(fxVpc, fxRoot, nil), "vpc-42", map[string]any{"cidr": "10.0.0.0/16"})
	evs = append(evs, fxStep(deploy.StepEvent{Op: deploy.OpRefresh, URN: fxVpc, Old: vpc, New: vpc, Logical: true,
		Outcome: deploy.OpSame}, 0, "")...)
	return append(evs, deploy.SummaryEvent{Duration: 2 * time.Second,
		Changes: map[deploy.Op]int{deploy.OpUpdate: 1, deploy.OpDelete: 1, deploy.OpSame: 1}})
}
