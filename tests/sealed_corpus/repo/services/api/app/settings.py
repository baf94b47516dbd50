from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Runtime configuration, read from KESTREL_* environment variables."""

    model_config = SettingsConfigDict(env_prefix="KESTREL_", env_file=".env")

    database_url: str = "postgresql+psycopg://localhost:5432/kestrel_dev"
    twilio_account_sid: str = ""
    twilio_auth_token: str = ""
    medbridge_base_url: str = "https://sandbox.medbridge.example/fhir/r4"
    log_level: str = "INFO"


settings = Settings()
