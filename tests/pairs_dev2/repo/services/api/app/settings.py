from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TIDEPOOL_", env_file=".env")

    database_url: str = "postgresql+psycopg://tidepool@localhost:5432/tidepool"
    environment: str = "dev"
    default_currency: str = "EUR"


settings = Settings()
