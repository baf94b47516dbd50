"""A keyword assigned a variable of the code is no secret: `token: impersonationToken`.

Cards quote code, and code passes credentials around by name. A value made of words
joined in camelCase or snake_case, with no digit, names a variable; a value that is random
(mixed with digits, or letters with no word runs) is still a secret.
"""

from __future__ import annotations

import pytest

from cardindex.secrets import find_secrets


@pytest.mark.parametrize("line", [
    "  token: impersonationToken,",
    "const session = { secret: signingSecretValue };",
    "headers: { authorization: bearerTokenFromStore }",
    "api_key = partner_api_key",
    "password: resolvedDatabasePassword",
])
def test_a_variable_of_the_code_is_not_a_secret(line: str) -> None:
    assert find_secrets(line) == ()


@pytest.mark.parametrize("line", [
    "token: kQwLmZpRtXvBnHsJdF",  # random letters: no word runs
    "token: aB3xQ9zLmP2vR7tY",
    "password = Tr0ub4dor&3xyz",
    "secret: wq8_Ld92kfZ0pq1rT",
])
def test_random_values_after_a_keyword_are_still_secrets(line: str) -> None:
    assert [s.kind for s in find_secrets(line)] == ["secret value"]
