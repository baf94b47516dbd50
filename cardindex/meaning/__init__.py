"""What cards state: words and statements, slots and values, similarity, and what the repo says.

`similarity` is the one model of what a card states and when two cards state the same
fact or facts that cannot both hold; `text` reads a card's description and statement
lines for the text rules; `repo_facts` reads what the repository already says (files,
code names and constants, docs passages, config records from `repo_files`, git history),
`repo_match` finds the passage that covers a sentence, and `claims` tells a card's claim
from its reasons, so the rules can tell derivable text. Pure functions of cards and
text, no writes. May import `store` and the base modules only.
"""
