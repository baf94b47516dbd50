"""initial: clinics, providers, appointments

Revision ID: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "clinics",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("tz", sa.Text, nullable=False),
    )
    op.create_table(
        "providers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("clinic_id", sa.Integer, sa.ForeignKey("clinics.id"), nullable=False),
        sa.Column("display_name", sa.Text, nullable=False),
    )
    op.create_table(
        "appointments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("provider_id", sa.Integer, sa.ForeignKey("providers.id"), nullable=False),
        sa.Column("patient_phone", sa.Text, nullable=False),
        sa.Column("start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("end", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="booked"),
    )


def downgrade() -> None:
    op.drop_table("appointments")
    op.drop_table("providers")
    op.drop_table("clinics")
