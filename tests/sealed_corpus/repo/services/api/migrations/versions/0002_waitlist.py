"""waitlist

Revision ID: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "waitlist_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("provider_id", sa.Integer, sa.ForeignKey("providers.id"), nullable=False),
        sa.Column("patient_phone", sa.Text, nullable=False),
        sa.Column("earliest", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("waitlist_entries")
