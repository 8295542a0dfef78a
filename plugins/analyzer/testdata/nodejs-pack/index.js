const pulumi = require("@pulumi/pulumi");
const { PolicyPack } = require("@pulumi/policy");
new PolicyPack("guards", {
    policies: [{
        name: "long-enough",
        description: "Random strings are at least 8 characters long.",
        enforcementLevel: "mandatory",
        validateResource: (args, reportViolation) => {
            if (args.type === "random:index/randomString:RandomString" && args.props.length < 8) {
                reportViolation(`${args.name} is only ${args.props.length} characters long`);
            }
        },
    }, {
        name: "few",
        description: "At most one resource of each type.",
        enforcementLevel: "advisory",
        validateStack: (args, reportViolation) => {
            if (args.resources.filter(r => r.type === "random:index/randomString:RandomString").length > 1) {
                reportViolation(`too many random strings in ${pulumi.getProject()}/${pulumi.getStack()}`);
            }
        },
    }],
});
