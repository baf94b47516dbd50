"""Load demo data: one clinic with two providers."""

from .models import Clinic, Provider

CLINIC = Clinic(id=1, name="Riverside Family Practice", tz="Europe/Prague")
PROVIDERS = [
    Provider(id=1, clinic_id=1, display_name="Dr. Alena Svobodova"),
    Provider(id=2, clinic_id=1, display_name="Dr. Marcus Hale"),
]


def main() -> None:
    print(f"seeded {CLINIC.name} with {len(PROVIDERS)} providers")


if __name__ == "__main__":
    main()
