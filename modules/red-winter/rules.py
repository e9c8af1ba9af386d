from pbem.rules.ruleset import Ruleset

def build_ruleset(module):
    return Ruleset(module)
