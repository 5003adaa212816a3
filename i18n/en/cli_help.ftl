# The CLI's --help: what each command and option is for. The id is `help-` and the
# command path (`help-rollout-plan`), then `-` and the option for an option.
