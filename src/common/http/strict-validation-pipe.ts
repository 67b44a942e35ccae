import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, type ValidationError } from 'class-validator';
import { suggestClosest } from '../text/did-you-mean';

/**
 * The global ValidationPipe of every Nest route (admin API, http channel): strict like the config — an unknown
 * field is refused with its name — and, as the config's errors do, a misspelt field names the one it was probably
 * meant to be: `property agentID should not exist (did you mean "agentId"?)`.
 */
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      // The target (the object an error was found in) says which DTO declares which fields; only the messages leave.
      validationError: { target: true, value: false },
    });
  }

  protected override flattenValidationErrors(validationErrors: ValidationError[]): string[] {
    for (const error of validationErrors) suggestFieldNames(error);
    return super.flattenValidationErrors(validationErrors);
  }
}

/** Appends a did-you-mean to each unknown-field message of `error` and its children, from the fields its DTO declares. */
function suggestFieldNames(error: ValidationError): void {
  const message = error.constraints?.whitelistValidation;
  if (message && error.target) {
    const suggestion = suggestClosest(error.property, declaredFields(error.target));
    if (suggestion) error.constraints!.whitelistValidation = `${message} (did you mean "${suggestion}"?)`;
  }
  for (const child of error.children ?? []) suggestFieldNames(child);
}

/** The fields the DTO of `instance` declares: those with a validation decorator (the ones the whitelist lets through). */
function declaredFields(instance: object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(instance.constructor, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}
